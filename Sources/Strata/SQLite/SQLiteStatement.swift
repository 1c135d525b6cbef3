import CSQLite

/// A prepared statement: bind by index, step, read columns by index.
final class SQLiteStatement: DatabaseStatement {
    let handle: OpaquePointer
    let sql: String
    private unowned let connection: SQLiteConnection

    init(handle: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Resets the statement and clears its bindings.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Steps once: true when a row is available, false when done.
    @discardableResult
    func step() throws(StrataError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = connection.error(code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Binds one value.
    func bind(_ value: SQLValue, at index: Int32) {
        switch value {
        case .null: sqlite3_bind_null(handle, index)
        case .integer(let number): sqlite3_bind_int64(handle, index, number)
        case .real(let number): bind(number, at: index)
        case .text(let text): bind(text, at: index)
        case .blob(let bytes): bind(bytes, at: index)
        }
    }

    @inline(__always) func bind(_ value: Int64, at index: Int32) { sqlite3_bind_int64(handle, index, value) }
    /// Binds a double; a NaN, which SQLite would turn into NULL, is bound as its bits (see `StoredDouble`).
    @inline(__always) func bind(_ value: Double, at index: Int32) {
        if value.isNaN { bind(StoredDouble.bytes(of: value), at: index) } else { sqlite3_bind_double(handle, index, value) }
    }
    @inline(__always) func bindNull(at index: Int32) { sqlite3_bind_null(handle, index) }

    func bind(_ text: String, at index: Int32) {
        var text = text
        text.withUTF8 { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else {
                _ = sqlite3_bind_text(handle, index, "", 0, strata_sqlite_static())
                return
            }
            _ = sqlite3_bind_text(handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(buffer.count),
                                  strata_sqlite_transient())
        }
    }

    func bind(_ bytes: [UInt8], at index: Int32) {
        bytes.withUnsafeBytes { buffer in
            _ = sqlite3_bind_blob(handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count), strata_sqlite_transient())
        }
    }

    /// The current row.
    var row: DatabaseRow { DatabaseRow(sqlite: SQLiteRow(handle: handle)) }

    /// Number of result columns.
    var columnCount: Int32 { sqlite3_column_count(handle) }

    /// A result column's name.
    func columnName(_ index: Int32) -> String { String(cString: sqlite3_column_name(handle, index)) }
}

/// Typed access to the current row of a statement, by column index.
@usableFromInline
struct SQLiteRow {
    @usableFromInline let handle: OpaquePointer

    @usableFromInline init(handle: OpaquePointer) { self.handle = handle }

    @inline(__always) func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }
    @inline(__always) func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }
    /// The column as a double; a NaN stored as its bits reads back as that NaN (see `StoredDouble`).
    @inline(__always) func double(_ index: Int32) -> Double {
        let value = sqlite3_column_double(handle, index)
        // Bytes read as a double give 0, so only a zero needs a second look.
        if value == 0, sqlite3_column_type(handle, index) == SQLITE_BLOB { return StoredDouble.value(of: bytes(index)) ?? 0 }
        return value
    }

    /// The column as text; inlinable, so a generated `readColumns(_:)` reads it without a call.
    @inlinable func string(_ index: Int32) -> String {
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    func bytes(_ index: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let pointer = sqlite3_column_blob(handle, index) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// The column as a storage-class value.
    func value(_ index: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(int64(index))
        case SQLITE_FLOAT: return .real(double(index))
        case SQLITE_TEXT: return .text(string(index))
        case SQLITE_BLOB: return .blob(bytes(index))
        default: return .null
        }
    }
}
