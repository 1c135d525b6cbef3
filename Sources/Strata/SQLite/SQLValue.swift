/// A value as SQLite stores it: one of its five storage classes.
///
/// Values travel as `SQLValue` only where a row must leave its connection (change notifications,
/// raw SQL arguments, query results); generated entity code binds and reads typed values directly.
public enum SQLValue: Hashable, Sendable {
    /// NULL.
    case null
    /// A signed 64-bit integer.
    case integer(Int64)
    /// A double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Bytes.
    case blob([UInt8])

    /// Whether this is NULL.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension SQLValue: CustomStringConvertible {
    /// A readable form for logs and debug descriptions (never for building SQL).
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value): return "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let bytes): return "x'" + bytes.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined() + "'"
        }
    }
}

extension Dictionary where Key == String, Value == SQLValue {
    /// The value stored under `key` as `T`; nil when the key is missing, the value is NULL, or it
    /// does not fit `T`. Generated migration views read old rows with it.
    public func stored<T: QueryableAttributeType>(_ key: String) -> T? {
        self[key].flatMap(T.init(sqlValue:))
    }

    /// The value stored under `key` as `T`, or `fallback` when there is none that fits.
    public func stored<T: QueryableAttributeType>(_ key: String, fallback: T) -> T {
        self[key].flatMap(T.init(sqlValue:)) ?? fallback
    }
}
