import Foundation

/// Reads one source's keys for a generated `ImportPayload`'s `init(from:)`: dotted key paths
/// (`owner.name`) walk nested objects, values convert as `ImportDecodable` says, and a source
/// that does not fit throws `invalidImportSource` naming the entity, where the source is (`[3]`,
/// `[3].pets[1]`) and the key.
public struct ImportPayloadReader {
    private let root: KeyedDecodingContainer<NameKey>
    private let entity: String
    private let source: String

    /// A reader of the object a decoder holds, for `entity`.
    public init(_ decoder: any Decoder, entity: String) throws {
        self.entity = entity
        source = Self.describe(path: decoder.codingPath)
        do {
            root = try decoder.container(keyedBy: NameKey.self)
        } catch {
            throw StrataError.invalidImportSource(entity: entity, source: source, key: nil,
                                                  reason: "expected an object, found \(Self.describe(decoder))")
        }
    }

    /// The value at a key the source must have: an ID that identifies the object.
    public func required<V: ImportDecodable>(_ type: V.Type, _ keyPath: String, attribute: String) throws -> V {
        switch try lookup(keyPath) {
        case .absent: throw failure(keyPath, "the key is missing, and '\(entity).\(attribute)' needs a value")
        case .null: throw failure(keyPath, "found null, and '\(entity).\(attribute)' needs a value")
        case .value(let container, let key): return try decode(V.self, container, key, keyPath)
        }
    }

    /// The value at a key; nil when the key is absent or null (the attribute is left as it is).
    public func value<V: ImportDecodable>(_ type: V.Type, _ keyPath: String, attribute: String) throws -> V? {
        guard case .value(let container, let key) = try lookup(keyPath) else { return nil }
        return try decode(V.self, container, key, keyPath)
    }

    /// What the source holds at a key for an optional attribute: absent, null or a value.
    public func field<V: ImportDecodable>(_ type: V.Type, _ keyPath: String, attribute: String) throws -> ImportField<V> {
        switch try lookup(keyPath) {
        case .absent: return .absent
        case .null: return .null
        case .value(let container, let key): return .value(try decode(V.self, container, key, keyPath))
        }
    }

    /// A `Codable` attribute's value at a key, decoded as its type decodes; nil when absent or null.
    public func codable<V: Decodable>(_ type: V.Type, _ keyPath: String, attribute: String) throws -> V? {
        guard case .value(let container, let key) = try lookup(keyPath) else { return nil }
        return try decodeCodable(V.self, container, key, keyPath)
    }

    /// A `Codable` optional attribute's value at a key: absent, null or a value.
    public func codableField<V: Decodable & Sendable & Hashable>(_ type: V.Type, _ keyPath: String, attribute: String) throws -> ImportField<V> {
        switch try lookup(keyPath) {
        case .absent: return .absent
        case .null: return .null
        case .value(let container, let key): return .value(try decodeCodable(V.self, container, key, keyPath))
        }
    }

    /// The related sources at a relationship's key: nested objects or IDs (one or an array each);
    /// nil when the key is absent, `.objects([])` for null.
    public func relation<P: Decodable & Sendable & Hashable, ID: ImportDecodable>(_ type: ImportRelation<P, ID>.Type, _ keyPath: String,
                                                           relationship: String) throws -> ImportRelation<P, ID>? {
        switch try lookup(keyPath) {
        case .absent: return nil
        case .null: return .objects([])
        case .value(let container, let key):
            do {
                return try container.decode(RelationBox<P, ID>.self, forKey: key).relation
            } catch let mismatch as RelationBox<P, ID>.Mixed {
                throw failure(keyPath, mismatch.reason)
            }
        }
    }

    // MARK: Lookup

    private enum Lookup {
        case absent
        case null
        case value(KeyedDecodingContainer<NameKey>, NameKey)
    }

    /// Where a dotted key path's value is; absent when a key on the way is missing or not an object.
    private func lookup(_ keyPath: String) throws -> Lookup {
        var container = root
        var parts = keyPath.split(separator: ".", omittingEmptySubsequences: false)
        let last = NameKey(String(parts.removeLast()))
        for part in parts {
            let key = NameKey(String(part))
            guard container.contains(key), !((try? container.decodeNil(forKey: key)) ?? true),
                  let next = try? container.nestedContainer(keyedBy: NameKey.self, forKey: key) else { return .absent }
            container = next
        }
        guard container.contains(last) else { return .absent }
        if try container.decodeNil(forKey: last) { return .null }
        return .value(container, last)
    }

    private func decode<V: ImportDecodable>(_ type: V.Type, _ container: KeyedDecodingContainer<NameKey>, _ key: NameKey, _ keyPath: String) throws -> V {
        do {
            return try container.decode(ScalarBox<V>.self, forKey: key).value
        } catch let mismatch as ScalarMismatch {
            throw failure(keyPath, "expected \(V.importDescription), found \(mismatch.found)")
        }
    }

    private func decodeCodable<V: Decodable>(_ type: V.Type, _ container: KeyedDecodingContainer<NameKey>, _ key: NameKey, _ keyPath: String) throws -> V {
        do {
            return try container.decode(V.self, forKey: key)
        } catch let error as DecodingError {
            throw failure(keyPath, "it does not decode as \(V.self): \(Self.describe(error))")
        }
    }

    private func failure(_ keyPath: String, _ reason: String) -> StrataError {
        .invalidImportSource(entity: entity, source: source, key: keyPath, reason: reason)
    }

    // MARK: Descriptions

    /// `[3].pets[1]`: where a value is in the document; empty at the top.
    static func describe(path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue { text += "[\(index)]" } else { text += text.isEmpty ? key.stringValue : "." + key.stringValue }
        }
        return text
    }

    /// What a decoder holds, for error messages: `the text "x"`, `3`, `an array`.
    static func describe(_ decoder: any Decoder) -> String {
        if let value = try? decoder.singleValueContainer() {
            if let raw = value as? JSONObjectDecoder.Value { return ImportValue.describe(raw.raw) }
            if value.decodeNil() { return "null" }
            if let bool = try? value.decode(Bool.self) { return bool ? "true" : "false" }
            if let integer = try? value.decode(Int64.self) { return "\(integer)" }
            if let number = try? value.decode(Double.self) { return "\(number)" }
            if let text = try? value.decode(String.self) { return "the text \"\(text)\"" }
        }
        if (try? decoder.unkeyedContainer()) != nil { return "an array" }
        return "an object"
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            let path = describe(path: context.codingPath)
            return context.debugDescription + (path.isEmpty ? "" : " at \(path)")
        @unknown default:
            return "\(error)"
        }
    }

    // MARK: Boxes

    /// A key by name.
    struct NameKey: CodingKey {
        let stringValue: String
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { return nil }
    }

    /// A value that does not convert; caught by the reader, which names the key.
    struct ScalarMismatch: Error {
        let found: String
    }

    /// One value, converted as `ImportDecodable` says.
    struct ScalarBox<V: ImportDecodable>: Decodable {
        let value: V
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            guard let value = V.importDecode(from: container) else { throw ScalarMismatch(found: ImportPayloadReader.describe(decoder)) }
            self.value = value
        }
    }
}

/// A relationship's value: one nested object or ID, or an array of them.
struct RelationBox<P: Decodable & Sendable & Hashable, ID: ImportDecodable>: Decodable {
    /// An array that holds objects and IDs both; caught by the reader, which names the key.
    struct Mixed: Error {
        let reason: String
    }

    /// One element: an ID or a nested object.
    enum Element: Decodable {
        case id(ID)
        case object(P)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let id = ID.importDecode(from: container) { self = .id(id); return }
            do {
                self = .object(try P(from: decoder))
            } catch StrataError.invalidImportSource(let entity, let source, nil, _) {
                let found = ImportPayloadReader.describe(decoder)
                let reason = ID.self == Never.self
                    ? "found \(found), but '\(entity)' has no uniqueID to find objects by"
                    : "expected an object or an ID (\(ID.importDescription)), found \(found)"
                throw StrataError.invalidImportSource(entity: entity, source: source, key: nil, reason: reason)
            }
        }
    }

    let relation: ImportRelation<P, ID>

    init(from decoder: any Decoder) throws {
        let elements: [Element]
        if var array = try? decoder.unkeyedContainer() {
            var all: [Element] = []
            while !array.isAtEnd { all.append(try array.decode(Element.self)) }
            elements = all
        } else {
            elements = [try Element(from: decoder)]
        }
        var objects: [P] = []
        var ids: [ID] = []
        for element in elements {
            switch element {
            case .id(let id): ids.append(id)
            case .object(let object): objects.append(object)
            }
        }
        if !objects.isEmpty && !ids.isEmpty { throw Mixed(reason: "expected objects or IDs, found an array that mixes them") }
        relation = ids.isEmpty ? .objects(objects) : .ids(ids)
    }
}
