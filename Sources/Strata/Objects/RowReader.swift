import Foundation

/// Reads the stored columns of one object, in the order its entity declares them.
///
/// Generated `readColumns(_:)` methods call one typed read per column, ancestors first; the reader
/// maps each to its position in the current row, which comes either straight from SQLite or from
/// values (a backend's decoded row, or those a commit captured to refresh the main context).
public struct RowReader {
    /// The statement positioned on the row, when the row is read straight from SQLite.
    private let statement: SQLiteRow?
    /// The row's values otherwise; borrowed for as long as the reader is used.
    private let values: UnsafeBufferPointer<SQLValue>
    /// Column index of each lineage ordinal; borrowed for as long as the reader is used.
    private let map: UnsafeBufferPointer<Int32>
    var ordinal = 0

    // The reader holds no reference, so reading a column retains nothing: the generated
    // `readColumns(_:)` calls one read per column of every fetched row.
    private init(statement: SQLiteRow?, values: UnsafeBufferPointer<SQLValue>, map: UnsafeBufferPointer<Int32>) {
        self.statement = statement
        self.values = values
        self.map = map
    }

    /// Runs `body` with a reader of `row` through `map`.
    static func reading<Result>(_ row: DatabaseRow, map: UnsafeBufferPointer<Int32>, _ body: (inout RowReader) -> Result) -> Result {
        if let sqlite = row.sqlite {
            var reader = RowReader(statement: sqlite, values: UnsafeBufferPointer(start: nil, count: 0), map: map)
            return body(&reader)
        }
        return reading(values: row.values ?? [], map: map, body)
    }

    /// Runs `body` with a reader of values (a backend's decoded row, or those a commit captured
    /// to refresh the main context) through `map`.
    static func reading<Result>(values: [SQLValue], map: UnsafeBufferPointer<Int32>, _ body: (inout RowReader) -> Result) -> Result {
        values.withUnsafeBufferPointer { values in
            var reader = RowReader(statement: nil, values: values, map: map)
            return body(&reader)
        }
    }

    @inline(__always)
    private mutating func next() -> Int32 {
        defer { ordinal += 1 }
        return map[ordinal]
    }

    /// The value of a column of `values` (NULL past its end).
    private func valueAt(_ column: Int32) -> SQLValue {
        column >= 0 && Int(column) < values.count ? values[Int(column)] : .null
    }

    @inline(__always) private func isNull(_ column: Int32) -> Bool {
        if let statement { return statement.isNull(column) }
        return valueAt(column).isNull
    }

    private func value(_ column: Int32) -> SQLValue {
        if let statement { return statement.value(column) }
        return valueAt(column)
    }

    @inline(__always) private func integer(_ column: Int32) -> Int64 {
        if let statement { return statement.int64(column) }
        return DatabaseRow.int64(of: valueAt(column))
    }

    @inline(__always) private func real(_ column: Int32) -> Double {
        if let statement { return statement.double(column) }
        return DatabaseRow.double(of: valueAt(column))
    }

    private func text(_ column: Int32) -> String {
        if let statement { return statement.string(column) }
        return DatabaseRow.string(of: valueAt(column))
    }

    /// The next column as an integer.
    public mutating func int64() -> Int64 { integer(next()) }
    /// The next column as an integer, or nil.
    public mutating func optionalInt64() -> Int64? { let column = next(); return isNull(column) ? nil : integer(column) }
    /// The next column as an `Int`.
    public mutating func int() -> Int { Int(truncatingIfNeeded: int64()) }
    /// The next column as an `Int32`.
    public mutating func int32() -> Int32 { Int32(truncatingIfNeeded: int64()) }
    /// The next column as an `Int16`.
    public mutating func int16() -> Int16 { Int16(truncatingIfNeeded: int64()) }
    /// The next column as a `Bool`.
    public mutating func bool() -> Bool { int64() != 0 }
    /// The next column as a `Double`.
    public mutating func double() -> Double { real(next()) }
    /// The next column as a `Float`.
    public mutating func float() -> Float { Float(real(next())) }
    /// The next column as a `Double`, or nil.
    public mutating func optionalDouble() -> Double? { let column = next(); return isNull(column) ? nil : real(column) }
    /// The next column as a `String`.
    public mutating func string() -> String { text(next()) }
    /// The next column as a `String`, or nil.
    public mutating func optionalString() -> String? { let column = next(); return isNull(column) ? nil : text(column) }
    /// The next column as a `Date`.
    public mutating func date() -> Date { Date(timeIntervalSinceReferenceDate: real(next())) }
    /// The next column as a `Date`, or nil.
    public mutating func optionalDate() -> Date? { optionalDouble().map(Date.init(timeIntervalSinceReferenceDate:)) }

    /// The next column as any queryable type; `fallback` when it is NULL or does not fit.
    public mutating func value<T: QueryableAttributeType>(_ type: T.Type = T.self, fallback: T) -> T {
        T(sqlValue: value(next())) ?? fallback
    }

    /// The next column as any queryable type, or nil.
    public mutating func optionalValue<T: QueryableAttributeType>(_ type: T.Type = T.self) -> T? {
        let column = next()
        return isNull(column) ? nil : T(sqlValue: value(column))
    }

    /// The next column decoded as a `Codable` value.
    public mutating func codable<T: Decodable>(_ type: T.Type = T.self, coder: CodableCoder) -> T? {
        guard case .blob(let bytes) = value(next()) else { return nil }
        return coder.decode(T.self, from: bytes)
    }
}
