import Foundation

/// A type an importer can read from a JSON value.
///
/// Every conversion looks first for what JSON-like dictionaries hold most often, by the value's
/// exact type (a comparison, no cast): `JSONSerialization`'s numbers (`NSNumber`; its booleans are
/// a subclass, never taken for numbers), Swift's `String`, `Int` and `Double`. Anything else takes
/// the general path, with the same result.
public protocol ImportConvertible {
    /// The value, when `raw` fits.
    init?(importValue raw: Any)
    /// What fits, for error messages: "a whole number".
    static var importDescription: String { get }
}

extension String: ImportConvertible {
    /// The value a decoded JSON source holds, or nil when it holds another kind.
    public init?(importValue raw: Any) {
        guard let text = raw as? String else { return nil }
        self = text
    }
    /// What a source must hold, as error messages say it.
    public static var importDescription: String { "text" }
}

extension Bool: ImportConvertible {
    /// The value a decoded JSON source holds, or nil when it holds another kind.
    public init?(importValue raw: Any) {
        guard ImportValue.isBoolean(raw), let value = raw as? Bool else { return nil }
        self = value
    }
    /// What a source must hold, as error messages say it.
    public static var importDescription: String { "true or false" }
}

/// Whole numbers: JSON numbers without a fraction that fit the type, or such numbers written as
/// text (`"3"`, see `ImportNumberText`).
public protocol ImportInteger: ImportConvertible, FixedWidthInteger {}

extension ImportInteger {
    /// The value a decoded JSON source holds, or nil when it holds another kind.
    public init?(importValue raw: Any) {
        let value: Self?
        if let number = ImportValue.exactly(raw, NSNumber.self) {
            value = Self.whole(number)
        } else if let integer = ImportValue.exactly(raw, Int.self) {
            value = Self(exactly: integer)
        } else if let text = raw as? String {
            value = ImportNumberText.integer(text, as: Self.self)
        } else if !ImportValue.isBoolean(raw), let number = raw as? NSNumber {
            value = Self.whole(number)
        } else {
            value = nil
        }
        guard let value else { return nil }
        self = value
    }

    /// The number when it is whole and fits `Self` exactly. Below 2^53 its `Double` says so;
    /// beyond, the integer it holds is read as signed or unsigned by its sign, and must agree with
    /// that `Double` (a fraction or an overflow there would not).
    static func whole(_ number: NSNumber) -> Self? {
        let double = number.doubleValue
        guard double.isFinite, double == double.rounded(.towardZero) else { return nil }
        if abs(double) < 9.0e15 { return Self(exactly: double) }
        if double < 0 {
            let integer = number.int64Value
            guard integer < 0, Double(integer) == double else { return nil }
            return Self(exactly: integer)
        }
        let integer = number.uint64Value
        guard Double(integer) == double else { return nil }
        return Self(exactly: integer)
    }

    /// What a source must hold, as error messages say it.
    public static var importDescription: String { "a whole number that fits \(Self.self)" }
}

extension Int: ImportInteger {}
extension Int16: ImportInteger {}
extension Int32: ImportInteger {}
extension Int64: ImportInteger {}

extension Double: ImportConvertible {
    /// The value a decoded JSON source holds, or nil when it holds another kind.
    public init?(importValue raw: Any) {
        if let number = ImportValue.exactly(raw, NSNumber.self) { self = number.doubleValue; return }
        // A Swift Double as it is: going through NSNumber would turn every NaN into the same one.
        if let value = ImportValue.exactly(raw, Double.self) { self = value; return }
        guard !ImportValue.isBoolean(raw) else { return nil }
        if let value = raw as? Double { self = value; return }
        if let text = raw as? String {
            guard let value = ImportNumberText.double(text) else { return nil }
            self = value
            return
        }
        guard let number = raw as? NSNumber else { return nil }
        self = number.doubleValue
    }
    /// What a source must hold, as error messages say it.
    public static var importDescription: String { "a number" }
}

extension Float: ImportConvertible {
    /// The value a decoded JSON source holds, or nil when it holds another kind; a finite number
    /// beyond `Float`'s range does not fit.
    public init?(importValue raw: Any) {
        if let value = ImportValue.exactly(raw, Float.self) { self = value; return }
        if let text = raw as? String {
            guard let value = ImportNumberText.float(text) else { return nil }
            self = value
            return
        }
        guard let double = Double(importValue: raw) else { return nil }
        let value = Float(double)
        guard value.isFinite || !double.isFinite else { return nil }
        self = value
    }
    /// What a source must hold, as error messages say it.
    public static var importDescription: String { "a number" }
}

extension Decimal: ImportConvertible {
    /// The value a decoded JSON source holds, or nil when it holds another kind.
    public init?(importValue raw: Any) {
        if let value = raw as? Decimal { self = value; return }
        if let text = raw as? String, let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) { self = value; return }
        guard !ImportValue.isBoolean(raw), let number = raw as? NSNumber else { return nil }
        self = Decimal(string: number.stringValue, locale: Locale(identifier: "en_US_POSIX")) ?? number.decimalValue
    }
    /// What a source must hold, as error messages say it.
    public static var importDescription: String { "a number or decimal text" }
}

extension Date: ImportConvertible {
    /// The value a decoded JSON source holds, or nil when it holds another kind.
    public init?(importValue raw: Any) {
        if let number = ImportValue.exactly(raw, NSNumber.self) { self = Date(timeIntervalSince1970: number.doubleValue); return }
        if let text = ImportValue.exactly(raw, String.self) {
            guard let date = ImportDateText.date(text) else { return nil }
            self = date
            return
        }
        if let value = raw as? Date { self = value; return }
        if let text = raw as? String {
            guard let date = ImportDateText.date(text) else { return nil }
            self = date
            return
        }
        guard !ImportValue.isBoolean(raw), let number = raw as? NSNumber else { return nil }
        self = Date(timeIntervalSince1970: number.doubleValue)
    }
    /// What a source must hold, as error messages say it.
    public static var importDescription: String { "an ISO 8601 date or seconds since 1970" }
}

extension UUID: ImportConvertible {
    /// The value a decoded JSON source holds, or nil when it holds another kind.
    public init?(importValue raw: Any) {
        if let value = raw as? UUID { self = value; return }
        guard let text = raw as? String, let value = UUID(uuidString: text) else { return nil }
        self = value
    }
    /// What a source must hold, as error messages say it.
    public static var importDescription: String { "a UUID" }
}

extension URL: ImportConvertible {
    /// The value a decoded JSON source holds, or nil when it holds another kind.
    public init?(importValue raw: Any) {
        if let value = raw as? URL { self = value; return }
        guard let text = raw as? String, let value = URL(string: text) else { return nil }
        self = value
    }
    /// What a source must hold, as error messages say it.
    public static var importDescription: String { "a URL" }
}

extension Data: ImportConvertible {
    /// The value a decoded JSON source holds, or nil when it holds another kind.
    public init?(importValue raw: Any) {
        if let value = raw as? Data { self = value; return }
        guard let text = raw as? String, let value = Data(base64Encoded: text) else { return nil }
        self = value
    }
    /// What a source must hold, as error messages say it.
    public static var importDescription: String { "base64 text" }
}
