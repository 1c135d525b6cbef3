import Foundation

/// A Swift type whose values can be stored in an attribute, compared in a `Where`, and returned by
/// a query. Each type has exactly one stored form, the same one entity classes write.
///
/// | type | stored as |
/// |---|---|
/// | Bool, Int, Int8…Int64, UInt8…UInt32 | INTEGER |
/// | Double, Float | REAL (a NaN as its 8 bytes, since SQLite has no NaN) |
/// | Date | REAL, seconds since 2001-01-01T00:00:00Z (`timeIntervalSinceReferenceDate`) |
/// | String, URL (absolute string), Decimal (its exact text) | TEXT |
/// | Data, UUID (16 bytes) | BLOB |
///
/// Enums and other `RawRepresentable` types whose raw value conforms get a conformance by
/// declaring it: `extension Mood: QueryableAttributeType {}`.
public protocol QueryableAttributeType: Sendable {
    /// The stored form.
    var sqlValue: SQLValue { get }
    /// Reads the stored form back; nil when it does not fit.
    init?(sqlValue: SQLValue)
    /// How SQL must compare stored values of this type (Decimal text compares as a number).
    static var comparison: SQLComparisonStyle { get }
}

/// How stored values of a type compare in SQL.
public enum SQLComparisonStyle: Sendable, Hashable {
    /// As stored.
    case direct
    /// Stored as text, compared as a number.
    case numericText
}

extension QueryableAttributeType {
    /// How SQL compares stored values of this type.
    public static var comparison: SQLComparisonStyle { .direct }
}

extension Bool: QueryableAttributeType {
    /// The stored form.
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
    /// Reads the stored form back; nil when it does not fit.
    public init?(sqlValue: SQLValue) {
        guard case .integer(let value) = sqlValue else { return nil }
        self = value != 0
    }
}

/// Shared by the integer types: stored as INTEGER, read back when it fits.
public protocol StoredInteger: QueryableAttributeType, FixedWidthInteger {}

extension StoredInteger {
    /// The stored form.
    public var sqlValue: SQLValue { .integer(Int64(self)) }
    /// Reads the stored form back; nil when it does not fit.
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .integer(let value): self.init(exactly: value)
        case .real(let value): self.init(exactly: value)
        default: return nil
        }
    }
}

extension Int: StoredInteger {}
extension Int8: StoredInteger {}
extension Int16: StoredInteger {}
extension Int32: StoredInteger {}
extension Int64: StoredInteger {}
extension UInt8: StoredInteger {}
extension UInt16: StoredInteger {}
extension UInt32: StoredInteger {}

extension Double: QueryableAttributeType {
    /// The stored form.
    public var sqlValue: SQLValue { .real(self) }
    /// Reads the stored form back; nil when it does not fit.
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        case .blob(let bytes):
            guard let value = StoredDouble.value(of: bytes) else { return nil }
            self = value
        default: return nil
        }
    }
}

extension Float: QueryableAttributeType {
    /// The stored form.
    public var sqlValue: SQLValue { .real(Double(self)) }
    /// Reads the stored form back; nil when it does not fit.
    public init?(sqlValue: SQLValue) {
        guard let value = Double(sqlValue: sqlValue) else { return nil }
        self = Float(value)
    }
}

extension String: QueryableAttributeType {
    /// The stored form.
    public var sqlValue: SQLValue { .text(self) }
    /// Reads the stored form back; nil when it does not fit.
    public init?(sqlValue: SQLValue) {
        guard case .text(let value) = sqlValue else { return nil }
        self = value
    }
}

extension Date: QueryableAttributeType {
    /// The stored form.
    public var sqlValue: SQLValue { .real(timeIntervalSinceReferenceDate) }
    /// Reads the stored form back; nil when it does not fit.
    public init?(sqlValue: SQLValue) {
        guard let seconds = Double(sqlValue: sqlValue) else { return nil }
        self = Date(timeIntervalSinceReferenceDate: seconds)
    }
}

extension Data: QueryableAttributeType {
    /// The stored form.
    public var sqlValue: SQLValue { .blob(Array(self)) }
    /// Reads the stored form back; nil when it does not fit.
    public init?(sqlValue: SQLValue) {
        guard case .blob(let bytes) = sqlValue else { return nil }
        self = Data(bytes)
    }
}

extension UUID: QueryableAttributeType {
    /// The stored form.
    public var sqlValue: SQLValue { .blob(withUnsafeBytes(of: uuid) { Array($0) }) }
    /// Reads the stored form back; nil when it does not fit.
    public init?(sqlValue: SQLValue) {
        guard case .blob(let bytes) = sqlValue, bytes.count == 16 else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes) }
        self = UUID(uuid: value)
    }
}

extension URL: QueryableAttributeType {
    /// The stored form.
    public var sqlValue: SQLValue { .text(absoluteString) }
    /// Reads the stored form back; nil when it does not fit.
    public init?(sqlValue: SQLValue) {
        guard case .text(let text) = sqlValue, let url = URL(string: text) else { return nil }
        self = url
    }
}

extension Decimal: QueryableAttributeType {
    /// The stored form.
    public var sqlValue: SQLValue { .text(description) }
    /// Reads the stored form back; nil when it does not fit.
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        // `Decimal.nan` is stored as its description, which `Decimal(string:)` does not read.
        case .text(let text): if text == Decimal.nan.description { self = .nan } else { self.init(string: text, locale: Locale(identifier: "en_US_POSIX")) }
        case .integer(let value): self = Decimal(value)
        case .real(let value): self = Decimal(value)
        default: return nil
        }
    }
    /// How SQL compares stored values of this type.
    public static var comparison: SQLComparisonStyle { .numericText }
}

extension RawRepresentable where Self: QueryableAttributeType, RawValue: QueryableAttributeType {
    /// The stored form.
    public var sqlValue: SQLValue { rawValue.sqlValue }
    /// Reads the stored form back; nil when it does not fit.
    public init?(sqlValue: SQLValue) {
        guard let raw = RawValue(sqlValue: sqlValue) else { return nil }
        self.init(rawValue: raw)
    }
    /// How SQL compares stored values of this type.
    public static var comparison: SQLComparisonStyle { RawValue.comparison }
}
