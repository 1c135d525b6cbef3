import CBenchSQLite

/// A plain SQLite connection in WAL mode with `synchronous = NORMAL`: the raw contender's, and the
/// one that seeds and checks the migration workloads' files.
final class RawDatabase {
    let handle: OpaquePointer

    init(path: String) {
        var pointer: OpaquePointer?
        sqlite3_open_v2(path, &pointer, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        handle = pointer!
        // A stack that just closed the file may still be finishing a read on another thread.
        sqlite3_busy_timeout(handle, 5_000)
        exec("PRAGMA journal_mode = WAL")
        exec("PRAGMA synchronous = NORMAL")
    }

    deinit { sqlite3_close_v2(handle) }

    func exec(_ sql: String) {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { fatalError(String(cString: sqlite3_errmsg(handle))) }
    }

    /// A statement prepared to be reused (`SQLITE_PREPARE_PERSISTENT`).
    func prepare(_ sql: String) -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK else {
            fatalError(String(cString: sqlite3_errmsg(handle)))
        }
        return statement!
    }
}
