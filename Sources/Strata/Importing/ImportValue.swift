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

    /// Whether a key path has more than one key (`owner.name`). A loop over the key's bytes: the
    /// generic `utf8.contains` cost about 230 instructions per key, read five times per source.
    @usableFromInline
    static func isDotted(_ keyPath: String) -> Bool {
        let found = keyPath.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where byte == UInt8(ascii: ".") { return true }
            return false
        }
        return found ?? keyPath.utf8.contains(UInt8(ascii: "."))
    }

    /// The value at a dotted key path.
    public static func lookup(_ source: [String: Any], _ keyPath: String) -> Lookup {
        guard isDotted(keyPath) else { return found(source[keyPath]) }
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
        let kind = type(of: raw)
        if kind == Bool.self || ObjectIdentifier(kind) == booleanClass { return true }
        if kind == NSNumber.self { return false }
        if let number = raw as? NSNumber {
            let kind = number.objCType
            return kind[0] == CChar(UInt8(ascii: "c")) && kind[1] == 0 && "\(type(of: number))".contains("Boolean")
        }
        return false
    }

    /// The class of Foundation's boolean numbers (`JSONSerialization`'s `true` and `false`).
    static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

    /// `raw` when it is exactly a `T`, found by comparing its type alone: a cast that fails looks
    /// through bridging conformances and costs far more than the conversion it guards.
    @inline(__always)
    static func exactly<T>(_ raw: Any, _ type: T.Type) -> T? {
        Swift.type(of: raw) == T.self ? (raw as! T) : nil
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
