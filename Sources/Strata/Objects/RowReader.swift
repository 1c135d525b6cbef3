import Foundation

/// Reads the stored columns of one object, in the order its entity declares them.
///
/// Generated `readColumns(_:)` methods call one typed read per column, ancestors first; the reader
/// maps each to its position in the current row, which comes either straight from SQLite or from
/// values (a backend's decoded row, or those a commit captured to refresh the main context).
public struct RowReader {
    /// The row read.
    private let row: DatabaseRow
    /// Column index of each lineage ordinal; owned by the caller for as long as the reader is used.
    private let map: UnsafeBufferPointer<Int32>
    var ordinal = 0

    /// A reader of a statement's current row.
    init(_ row: DatabaseRow, map: UnsafeBufferPointer<Int32>) {
        self.row = row
        self.map = map
    }

    /// A reader of captured values.
    init(values: [SQLValue], map: UnsafeBufferPointer<Int32>) {
        self.init(DatabaseRow(values: values), map: map)
    }

    @inline(__always)
    private mutating func next() -> Int32 {
        defer { ordinal += 1 }
        return map[ordinal]
    }

    @inline(__always) private func isNull(_ column: Int32) -> Bool { row.isNull(column) }
    private func value(_ column: Int32) -> SQLValue { row.value(column) }
    @inline(__always) private func integer(_ column: Int32) -> Int64 { row.int64(column) }
    @inline(__always) private func real(_ column: Int32) -> Double { row.double(column) }
    private func text(_ column: Int32) -> String { row.string(column) }

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
