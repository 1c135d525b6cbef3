import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One SQLite connection with a cache of persistent prepared statements.
///
/// A connection is used by one isolation domain at a time (the writer queue, the main actor, or
/// one read context), so it is deliberately not `Sendable`.
final class SQLiteConnection: DatabaseConnection {
    let handle: OpaquePointer
    /// The file path, or ":memory:"-style names for in-memory databases.
    let path: String
    /// How long a statement waits for a lock another connection holds.
    let busyTimeoutMilliseconds: Int32
    private var cache: [String: SQLiteStatement] = [:]

    /// SQLite's SQL.
    var dialect: SQLDialect { .sqlite }

    /// Opens (and, when writable, creates) a database.
    init(path: String, readOnly: Bool, busyTimeoutMilliseconds: Int32 = 5_000) throws(StrataError) {
        var pointer: OpaquePointer?
        var flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        flags |= SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        let code = sqlite3_open_v2(path, &pointer, flags, nil)
        guard code == SQLITE_OK, let pointer else {
            var message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            // Out of file descriptors reads as "unable to open database file": say so.
            if let pointer, [EMFILE, ENFILE].contains(sqlite3_system_errno(pointer)) { message = Self.tooManyFiles + " (" + message + ")" }
            if let pointer { sqlite3_close_v2(pointer) }
            throw .sqlite(code: code, message: message, sql: nil)
        }
        self.handle = pointer
        self.path = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        sqlite3_busy_timeout(pointer, busyTimeoutMilliseconds)
        sqlite3_extended_result_codes(pointer, 1)
        // Reads pages through a memory map of the file (up to `mappedBytes`) instead of copying
        // each one with `pread` into the connection's cache: a scan of a cold file spent half its
        // time in those copies. The mapping is read-only (SQLite writes with `pwrite` as before),
        // and where mapping is not possible SQLite reads as before.
        sqlite3_exec(pointer, "PRAGMA mmap_size = \(Self.mappedBytes)", nil, nil, nil)
        SQLiteFunctions.register(on: pointer)
    }

    /// How much of a database file a connection maps: 1 GiB on 64-bit systems, none on 32-bit
    /// ones, whose address space a mapping that size would crowd.
    static let mappedBytes: Int64 = MemoryLayout<Int>.size >= 8 ? 1 << 30 : 0

    deinit {
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs SQL without results (may hold several statements); values cannot be bound here, so
    /// this is for DDL and pragmas built from quoted identifiers only.
    func execute(_ sql: String) throws(StrataError) {
        var error: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &error)
        guard code == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(error)
            throw failure(code, message: message, sql: sql)
        }
    }

    /// `BEGIN IMMEDIATE`: the write lock is taken now, not at the first write. A file deleted or
    /// moved while open is refused (writes to it would vanish when it closes), and a lock held
    /// longer than the busy timeout is `storeBusy`.
    func beginWriteTransaction() throws(StrataError) {
        if fileHasMoved { throw .storeMoved(file: path) }
        do {
            try execute("BEGIN IMMEDIATE")
        } catch {
            if case .sqlite(let code, _, _) = error, code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED {
                throw .storeBusy(file: path, milliseconds: Int(busyTimeoutMilliseconds))
            }
            throw error
        }
    }

    /// The tables of the main database, from `sqlite_master`.
    func tableNames() throws(StrataError) -> Set<String> {
        let statement = try prepare("SELECT name FROM sqlite_master WHERE type = 'table'", persistent: false)
        var names: Set<String> = []
        while try statement.step() { names.insert(statement.row.string(0)) }
        return names
    }

    /// `BEGIN`: SQLite's read transaction, whose first read pins the snapshot (WAL mode).
    func beginReadTransaction() throws(StrataError) { try execute("BEGIN") }

    /// `COMMIT`.
    func commit() throws(StrataError) { try execute("COMMIT") }

    /// `ROLLBACK`.
    func rollback() throws(StrataError) { try execute("ROLLBACK") }

    /// The error for a failed call: a full disk as `storeFull`, running out of file descriptors
    /// said in the message, anything else as SQLite reported it.
    private func failure(_ code: Int32, message: String, sql: String) -> StrataError {
        if code & 0xFF == SQLITE_FULL { return .storeFull(file: path) }
        if code & 0xFF == SQLITE_CANTOPEN, [EMFILE, ENFILE].contains(sqlite3_system_errno(handle)) {
            return .sqlite(code: code, message: Self.tooManyFiles + " (" + message + ")", sql: sql)
        }
        return .sqlite(code: code, message: message, sql: sql)
    }

    /// The start of the message for a file SQLite could not open because the process ran out of
    /// file descriptors.
    static let tooManyFiles = "the process has too many open files"

    /// Whether the database file was deleted, renamed or replaced since it was opened.
    var fileHasMoved: Bool {
        var moved: Int32 = 0
        return sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK && moved != 0
    }

    /// A statement prepared once per connection and reused: reset and cleared before it is returned.
    func cachedStatement(_ sql: String) throws(StrataError) -> any DatabaseStatement {
        try cachedSQLiteStatement(sql)
    }

    /// The cached statement of `write`'s row: SQLite runs each row as it is stepped.
    func batchedStatement(_ write: BatchedWrite) throws(StrataError) -> any DatabaseStatement {
        try cachedSQLiteStatement(write.sql)
    }

    /// ``cachedStatement(_:)``, as the SQLite statement it is.
    func cachedSQLiteStatement(_ sql: String) throws(StrataError) -> SQLiteStatement {
        if let statement = cache[sql] {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql, persistent: true)
        cache[sql] = statement
        return statement
    }

    /// A new statement.
    func prepare(_ sql: String) throws(StrataError) -> any DatabaseStatement {
        try prepare(sql, persistent: false)
    }

    /// A new statement; a persistent one is meant to be kept and reused.
    func prepare(_ sql: String, persistent: Bool) throws(StrataError) -> SQLiteStatement {
        var pointer: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let code = sqlite3_prepare_v3(handle, sql, -1, flags, &pointer, nil)
        guard code == SQLITE_OK, let pointer else {
            throw .sqlite(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
        }
        return SQLiteStatement(handle: pointer, connection: self, sql: sql)
    }

    /// The error of the last failed call, carrying SQLite's code and message and the SQL.
    func error(_ code: Int32, sql: String) -> StrataError {
        failure(code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether a transaction is open.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Never: a SQLite file has no connection to lose.
    var isBroken: Bool { false }
}
