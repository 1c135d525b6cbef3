import CSQLite

/// Opens a database with SQLite itself (read-write, so a hot journal a killed process left is recovered), apart from the runtime under test.
func sqlite3Open(_ path: String, _ database: inout OpaquePointer?) -> Bool {
    sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK
}

/// The first column of the first row of a query, as text; nil when the query fails.
func sqlite3Scalar(_ database: OpaquePointer?, _ sql: String) -> String? {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else { return nil }
    defer { sqlite3_finalize(statement) }
    guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else { return nil }
    return String(cString: text)
}
