/// The current row of a statement, read by column index: straight from a SQLite statement, or
/// from the values a backend that sends rows over the network has already decoded.
package struct DatabaseRow {
    /// The SQLite statement positioned on the row; nil when the row is `values`.
    let sqlite: SQLiteRow?
    /// The row's values; nil when it is read from SQLite (so a SQLite row retains no array).
    let values: [SQLValue]?

    /// A row of a SQLite statement.
    init(sqlite: SQLiteRow) {
        self.sqlite = sqlite
        self.values = nil
    }

    /// A row already decoded.
    package init(values: [SQLValue]) {
        self.sqlite = nil
        self.values = values
    }

    /// Whether the column is NULL (or missing).
    @inline(__always) package func isNull(_ index: Int32) -> Bool {
        if let sqlite { return sqlite.isNull(index) }
        return value(index).isNull
    }

    /// The column as an integer (0 when it is not one).
    @inline(__always) package func int64(_ index: Int32) -> Int64 {
        if let sqlite { return sqlite.int64(index) }
        return Self.int64(of: value(index))
    }

    /// The column as a double (0 when it is not a number).
    @inline(__always) package func double(_ index: Int32) -> Double {
        if let sqlite { return sqlite.double(index) }
        return Self.double(of: value(index))
    }

    /// The column as text ("" when it is not text).
    package func string(_ index: Int32) -> String {
        if let sqlite { return sqlite.string(index) }
        return Self.string(of: value(index))
    }

    /// The column as a storage-class value.
    package func value(_ index: Int32) -> SQLValue {
        if let sqlite { return sqlite.value(index) }
        guard let values else { return .null }
        return values.withUnsafeBufferPointer { Self.value(index, of: $0) }
    }

    /// The value at a column index of decoded values: NULL past their end, as SQLite reads a
    /// column it does not have.
    @inline(__always)
    static func value(_ index: Int32, of values: UnsafeBufferPointer<SQLValue>) -> SQLValue {
        index >= 0 && Int(index) < values.count ? values[Int(index)] : .null
    }

    /// A value as an integer (0 when it is not one).
    static func int64(of value: SQLValue) -> Int64 { Int64(sqlValue: value) ?? 0 }

    /// A value as a double (0 when it is not a number).
    static func double(of value: SQLValue) -> Double { Double(sqlValue: value) ?? 0 }

    /// A value as text ("" when it is not text).
    static func string(of value: SQLValue) -> String { String(sqlValue: value) ?? "" }
}
