import CSQLite
import Foundation

/// Reads the stored columns of one object, in the order its entity declares them.
///
/// Generated `readColumns(_:)` methods call one typed read per column, ancestors first; the reader
/// maps each to its position in the current row, which comes either straight from SQLite or from
/// values (a backend's decoded row, or those a commit captured to refresh the main context).
public struct RowReader {
    // The typed reads are inlinable, so a generated `readColumns(_:)` reads a SQLite column with
    // the SQLite call itself and no call into this module: about thirty instructions less per
    // column of every fetched row. The reader holds no reference, so reading retains nothing.

    /// The SQLite statement positioned on the row, when the row is read straight from SQLite.
    @usableFromInline let statement: OpaquePointer?
    /// The row's values otherwise (a buffer borrowed for as long as the reader is used), so that
    /// the reader stays three words: a generated `readColumns(_:)` then keeps it in registers
    /// across the SQLite calls instead of reloading it from memory for every column.
    @usableFromInline let values: UnsafePointer<UnsafeBufferPointer<SQLValue>>?
    /// The column index of the next lineage ordinal, in the borrowed column map.
    @usableFromInline var cursor: UnsafePointer<Int32>

    private init(statement: OpaquePointer?, values: UnsafePointer<UnsafeBufferPointer<SQLValue>>?, map: UnsafeBufferPointer<Int32>) {
        self.statement = statement
        self.values = values
        // An empty map is never read; its stand-in is any non-null, aligned address.
        self.cursor = map.baseAddress ?? UnsafePointer(bitPattern: MemoryLayout<Int32>.alignment)!
    }

    /// Runs `body` with a reader of `row` through `map`.
    static func reading<Result>(_ row: DatabaseRow, map: UnsafeBufferPointer<Int32>, _ body: (inout RowReader) -> Result) -> Result {
        if let sqlite = row.sqlite {
            var reader = RowReader(statement: sqlite.handle, values: nil, map: map)
            return body(&reader)
        }
        return reading(values: row.values ?? [], map: map, body)
    }

    /// Runs `body` with a reader of values (a backend's decoded row, or those a commit captured
    /// to refresh the main context) through `map`.
    static func reading<Result>(values: [SQLValue], map: UnsafeBufferPointer<Int32>, _ body: (inout RowReader) -> Result) -> Result {
        values.withUnsafeBufferPointer { buffer in
            withUnsafePointer(to: buffer) { buffer in
                var reader = RowReader(statement: nil, values: buffer, map: map)
                return body(&reader)
            }
        }
    }

    /// The column of the next ordinal. The map has one entry per ordinal of the lineage, and a
    /// generated `readColumns(_:)` reads each ordinal once, so the cursor stays inside it.
    @inlinable @inline(__always)
    mutating func next() -> Int32 {
        defer { cursor += 1 }
        return cursor.pointee
    }

    /// The row as `DatabaseRow` reads it, for what is not inlined.
    private var row: SQLiteRow? { statement.map(SQLiteRow.init(handle:)) }

    /// The value of a column of `values` (NULL past its end, or when the row is SQLite's).
    private func valueAt(_ column: Int32) -> SQLValue { values.map { DatabaseRow.value(column, of: $0.pointee) } ?? .null }

    @inlinable @inline(__always)
    func isNull(_ column: Int32) -> Bool {
        if let statement { return sqlite3_column_type(statement, column) == SQLITE_NULL }
        return isNullValue(column)
    }

    @usableFromInline func isNullValue(_ column: Int32) -> Bool { valueAt(column).isNull }

    private func value(_ column: Int32) -> SQLValue {
        if let row { return row.value(column) }
        return valueAt(column)
    }

    @inlinable @inline(__always)
    func integer(_ column: Int32) -> Int64 {
        if let statement { return sqlite3_column_int64(statement, column) }
        return integerValue(column)
    }

    @usableFromInline func integerValue(_ column: Int32) -> Int64 { DatabaseRow.int64(of: valueAt(column)) }

    @inlinable @inline(__always)
    func real(_ column: Int32) -> Double {
        if let statement {
            // A zero may be a NaN stored as its bytes (see `StoredDouble`): only zeros look again.
            let value = sqlite3_column_double(statement, column)
            if value != 0 { return value }
        }
        return realValue(column)
    }

    @usableFromInline func realValue(_ column: Int32) -> Double {
        if let row { return row.double(column) }
        return DatabaseRow.double(of: valueAt(column))
    }

    @inlinable @inline(__always)
    func text(_ column: Int32) -> String {
        if let statement { return SQLiteRow(handle: statement).string(column) }
        return textValue(column)
    }

    @usableFromInline func textValue(_ column: Int32) -> String { DatabaseRow.string(of: valueAt(column)) }

    /// The next column as an integer.
    @inlinable public mutating func int64() -> Int64 { integer(next()) }
    /// The next column as an integer, or nil.
    @inlinable public mutating func optionalInt64() -> Int64? { let column = next(); return isNull(column) ? nil : integer(column) }
    /// The next column as an `Int`.
    @inlinable public mutating func int() -> Int { Int(truncatingIfNeeded: int64()) }
    /// The next column as an `Int32`.
    @inlinable public mutating func int32() -> Int32 { Int32(truncatingIfNeeded: int64()) }
    /// The next column as an `Int16`.
    @inlinable public mutating func int16() -> Int16 { Int16(truncatingIfNeeded: int64()) }
    /// The next column as a `Bool`.
    @inlinable public mutating func bool() -> Bool { int64() != 0 }
    /// The next column as a `Double`.
    @inlinable public mutating func double() -> Double { real(next()) }
    /// The next column as a `Float`.
    @inlinable public mutating func float() -> Float { Float(real(next())) }
    /// The next column as a `Double`, or nil.
    @inlinable public mutating func optionalDouble() -> Double? { let column = next(); return isNull(column) ? nil : real(column) }
    /// The next column as a `String`.
    @inlinable public mutating func string() -> String { text(next()) }
    /// The next column as a `String`, or nil.
    @inlinable public mutating func optionalString() -> String? { let column = next(); return isNull(column) ? nil : text(column) }
    /// The next column as a `Date`.
    @inlinable public mutating func date() -> Date { Date(timeIntervalSinceReferenceDate: real(next())) }
    /// The next column as a `Date`, or nil.
    @inlinable public mutating func optionalDate() -> Date? { optionalDouble().map(Date.init(timeIntervalSinceReferenceDate:)) }

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

    /// The next column of a `coder: custom` attribute, its bytes turned into a value by the app's
    /// `decode`; nil when NULL. A `decode` that throws leaves nil and is reported to the object's
    /// context, which fails the read that met it with `decodingFailed` naming the entity, the
    /// attribute and the object.
    public mutating func custom<T>(_ type: T.Type = T.self, attribute: StaticString, of object: StrataObject,
                                   decode: (Data) throws -> T) -> T? {
        guard case .blob(let bytes) = value(next()) else { return nil }
        do {
            return try decode(Data(bytes))
        } catch {
            let entity = Swift.type(of: object).entityName
            object.context?.noteReadFailure(.decodingFailed(entity: entity, attribute: "\(attribute)", object: "\(entity) #\(object.rowID)",
                                                            reason: "\(error)"), of: object)
            return nil
        }
    }
}
