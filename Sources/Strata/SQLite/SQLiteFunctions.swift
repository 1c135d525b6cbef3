import CSQLite

/// SQL functions every Strata connection has.
enum SQLiteFunctions {
    /// Registers `strata_fold(text)`: the text with case folded by Unicode rules (SQLite's own
    /// `lower()` folds ASCII only), used by case-insensitive text matches.
    static func register(on handle: OpaquePointer) {
        sqlite3_create_function_v2(handle, "strata_fold", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, count, arguments in
            guard count == 1, let argument = arguments?[0], sqlite3_value_type(argument) != SQLITE_NULL,
                  let text = sqlite3_value_text(argument) else {
                sqlite3_result_null(context)
                return
            }
            let length = Int(sqlite3_value_bytes(argument))
            var folded = String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self).lowercased()
            folded.withUTF8 { buffer in
                sqlite3_result_text(context, buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                                    Int32(buffer.count), strata_sqlite_transient())
            }
        }, nil, nil, nil)
    }
}
