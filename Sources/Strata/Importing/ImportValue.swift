import Foundation

/// Reading typed values out of JSON-like sources, for importers written by hand over
/// `[String: Any]` (generated ones decode payloads instead): key paths such as
/// `owner.name` walk nested objects, and a value of the wrong kind is an error naming the entity,
/// attribute and key.
public enum ImportValue {
    /// What a source holds at a key path: `.absent` when a key is missing, `.null` for JSON null.
    public enum Lookup {
        /// The key is missing.
        case absent
        /// The key holds JSON null.
        case null
        /// The key holds this value.
        case value(Any)
    }

    /// The value at a dotted key path.
    public static func lookup(_ source: [String: Any], _ keyPath: String) -> Lookup {
        guard keyPath.utf8.contains(UInt8(ascii: ".")) else { return found(source[keyPath]) }
        var parts = keyPath.split(separator: ".", omittingEmptySubsequences: false)
        let key = String(parts.removeLast())
        var object = source
        for part in parts {
            guard let next = object[String(part)] as? [String: Any] else { return .absent }
            object = next
        }
        return found(object[key])
    }

    /// A dictionary's value as a lookup result; the type comparison is much cheaper than a cast.
    private static func found(_ value: Any?) -> Lookup {
        guard let value else { return .absent }
        return type(of: value) == NSNull.self ? .null : .value(value)
    }

    /// A value converted to `V`; nil when absent or null; throws when it does not fit.
    public static func decode<V: ImportConvertible>(_ type: V.Type, _ source: [String: Any], _ keyPath: String,
                                                     entity: String, attribute: String) throws(StrataError) -> V? {
        guard case .value(let raw) = lookup(source, keyPath) else { return nil }
        guard let value = V(importValue: raw) else {
            throw .importFailed(entity: entity, attribute: attribute, key: keyPath,
                                reason: "expected \(V.importDescription), found \(describe(raw))")
        }
        return value
    }

    /// A `Codable` value decoded from the JSON at a key path.
    public static func decodeCodable<V: Decodable>(_ type: V.Type, _ source: [String: Any], _ keyPath: String,
                                                   entity: String, attribute: String) throws(StrataError) -> V? {
        guard case .value(let raw) = lookup(source, keyPath) else { return nil }
        do {
            let data = try JSONSerialization.data(withJSONObject: raw, options: [.fragmentsAllowed])
            return try JSONDecoder().decode(V.self, from: data)
        } catch {
            throw .importFailed(entity: entity, attribute: attribute, key: keyPath, reason: "it does not decode as \(V.self): \(error)")
        }
    }

    /// The related objects a source names at a key path: nested objects (one or an array), or
    /// unique IDs of existing objects (one or an array); nil when the key is absent, none for null.
    public static func related(_ source: [String: Any], _ keyPath: String, entity: String, relationship: String) throws(StrataError) -> RelatedSources? {
        let context = (entity: entity, relationship: relationship, key: keyPath)
        switch lookup(source, keyPath) {
        case .absent: return nil
        case .null: return RelatedSources(objects: [], ids: [], context: context)
        case .value(let raw):
            if let object = raw as? [String: Any] { return RelatedSources(objects: [object], ids: [], context: context) }
            if let array = raw as? [Any] {
                if let objects = array as? [[String: Any]] { return RelatedSources(objects: objects, ids: [], context: context) }
                if array.allSatisfy({ !($0 is [String: Any]) && !($0 is [Any]) && !($0 is NSNull) }) {
                    return RelatedSources(objects: [], ids: array, context: context)
                }
                throw .importFailed(entity: entity, attribute: relationship, key: keyPath,
                                    reason: "expected objects or IDs, found an array that mixes them")
            }
            return RelatedSources(objects: [], ids: [raw], context: context)
        }
    }

    /// Whether a key path holds JSON null.
    public static func isNull(_ source: [String: Any], _ keyPath: String) -> Bool {
        if case .null = lookup(source, keyPath) { return true }
        return false
    }

    /// Whether a JSON value is a boolean. `JSONSerialization` returns booleans as `NSNumber`s that
    /// also cast to `Bool` (and so do `0` and `1`), so the test looks at the number's kind.
    static func isBoolean(_ raw: Any) -> Bool {
        if type(of: raw) == Bool.self { return true }
        if let number = raw as? NSNumber {
            let kind = number.objCType
            return kind[0] == CChar(UInt8(ascii: "c")) && kind[1] == 0 && "\(type(of: number))".contains("Boolean")
        }
        return false
    }

    @usableFromInline
    static func describe(_ raw: Any) -> String {
        switch raw {
        case let text as String: return "the text \"\(text)\""
        case _ where isBoolean(raw): return (raw as? Bool) == true ? "true" : "false"
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        default: return "\(raw)"
        }
    }
}

/// What a relationship key of a source holds: nested objects to import, or IDs of existing objects.
public struct RelatedSources {
    /// Nested source objects.
    public let objects: [[String: Any]]
    /// Unique IDs, as JSON values.
    public let ids: [Any]
    let context: (entity: String, relationship: String, key: String)
}

/// A type an importer can read from a JSON value.
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
        if let text = raw as? String {
            guard let value = ImportNumberText.integer(text, as: Self.self) else { return nil }
            self = value
            return
        }
        guard !ImportValue.isBoolean(raw), let number = raw as? NSNumber else { return nil }
        let double = number.doubleValue
        guard double == double.rounded(.towardZero), let value = Self(exactly: number.int64Value),
              Double(number.int64Value) == double || abs(double) >= 9.0e15 else { return nil }
        self = value
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
        guard !ImportValue.isBoolean(raw) else { return nil }
        // A Swift Double first: going through NSNumber would turn every NaN into the same one.
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
    /// The value a decoded JSON source holds, or nil when it holds another kind.
    public init?(importValue raw: Any) {
        if !ImportValue.isBoolean(raw), let value = raw as? Float { self = value; return }
        if let text = raw as? String {
            guard let value = ImportNumberText.float(text) else { return nil }
            self = value
            return
        }
        guard let value = Double(importValue: raw) else { return nil }
        self = Float(value)
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
        if let value = raw as? Date { self = value; return }
        if let text = raw as? String {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            if let date = formatter.date(from: text) { self = date; return }
            formatter.formatOptions = [.withInternetDateTime]
            if let date = formatter.date(from: text) { self = date; return }
            formatter.formatOptions = [.withFullDate]
            guard let date = formatter.date(from: text) else { return nil }
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
