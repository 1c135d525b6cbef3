import Foundation

/// Reads one source's keys for a generated `ImportPayload`'s `init(from:)`: dotted key paths
/// (`owner.name`) walk nested objects, values convert as `ImportDecodable` says, and a source
/// that does not fit throws `invalidImportSource` naming the entity, where the source is (`[3]`,
/// `[3].pets[1]`) and the key.
public struct ImportPayloadReader {
    /// Where the keys are read from: a dictionary (a `[String: Any]` source, read directly), or
    /// a decoder's keyed container. Each case is one reference, so that reading a key copies a
    /// pointer. `KeyedDecodingContainer` is a standard-library type whose layout clients do not
    /// know, so an enum holding it (with the decoder's existential or without) is copied through
    /// value witnesses on every key read: about 180 instructions a copy with the decoder inline,
    /// and more than the box's one allocation a source without it (`import-150k` at
    /// `STRATA_BENCH_SCALE=0.1`, callgrind, instructions a source with the prefill: 107,540
    /// inline, 108,458 without the decoder, 106,620 boxed).
    @usableFromInline
    enum Storage {
        case object([String: Any])
        case container(DecoderSource)
    }

    /// A decoder and its keyed container.
    @usableFromInline
    final class DecoderSource {
        @usableFromInline let container: KeyedDecodingContainer<NameKey>
        let decoder: any Decoder

        init(_ decoder: any Decoder) throws {
            container = try decoder.container(keyedBy: NameKey.self)
            self.decoder = decoder
        }
    }

    /// Where the source is in the document: an element of the top-level array (the usual case,
    /// kept as its index), or the decoder's coding path, asked for only when an error names it
    /// (a decoder builds the path anew each time it is asked).
    @usableFromInline
    enum Location {
        case element(Int?)
        case decoder(any Decoder)
    }

    @usableFromInline let storage: Storage
    @usableFromInline let entity: String
    @usableFromInline let location: Location

    /// Where the source is, as errors name it: `[3]`, `[3].pets[1]`, or empty at the top.
    @usableFromInline
    var source: String {
        switch location {
        case .element(let index): return index.map { "[\($0)]" } ?? ""
        case .decoder(let decoder): return Self.describe(path: decoder.codingPath)
        }
    }

    /// A reader of the object a decoder holds, for `entity`.
    public init(_ decoder: any Decoder, entity: String) throws {
        self.entity = entity
        location = .decoder(decoder)
        if let objectDecoder = decoder as? JSONObjectDecoder {
            guard let object = objectDecoder.value as? [String: Any] else {
                throw StrataError.invalidImportSource(entity: entity, source: Self.describe(path: decoder.codingPath), key: nil,
                                                      reason: "expected an object, found \(ImportValue.describe(objectDecoder.value))")
            }
            storage = .object(object)
            return
        }
        do {
            storage = .container(try DecoderSource(decoder))
        } catch {
            throw StrataError.invalidImportSource(entity: entity, source: Self.describe(path: decoder.codingPath), key: nil,
                                                  reason: "expected an object, found \(Self.describe(decoder))")
        }
    }

    /// A reader of a `[String: Any]` source, read directly (no decoder), for `entity`; `index` is
    /// the source's place in the array being imported, which errors name (`[3]`).
    @inlinable
    public init(jsonObject: [String: Any], index: Int?, entity: String) {
        self.entity = entity
        location = .element(index)
        storage = .object(jsonObject)
    }

    /// The path of the source, for decoders of its nested values.
    private var codingPath: [any CodingKey] {
        switch location {
        case .element(let index): return index.map { [IndexKey($0)] } ?? []
        case .decoder(let decoder): return decoder.codingPath
        }
    }

    /// A decoder of the whole source, for payloads whose `init(reading:)` is their `init(from:)`.
    var decoder: any Decoder {
        switch storage {
        case .object(let object): return JSONObjectDecoder(object, codingPath: codingPath)
        case .container(let source): return source.decoder
        }
    }

    /// The value at a key the source must have, for payloads written by hand (generated ones read
    /// even a unique ID with ``value(_:_:attribute:)``, so that a source without one is skipped):
    /// absent or null throws `invalidImportSource` naming the source and the key.
    @inlinable
    public func required<V: ImportDecodable>(_ type: V.Type, _ keyPath: String, attribute: String) throws -> V {
        switch try scalar(V.self, keyPath) {
        case .absent: throw failure(keyPath, "the key is missing, and '\(entity).\(attribute)' needs a value")
        case .null: throw failure(keyPath, "found null, and '\(entity).\(attribute)' needs a value")
        case .value(let value): return value
        }
    }

    /// The value at a key; nil when the key is absent or null (the attribute is left as it is).
    @inlinable
    public func value<V: ImportDecodable>(_ type: V.Type, _ keyPath: String, attribute: String) throws -> V? {
        guard case .value(let value) = try scalar(V.self, keyPath) else { return nil }
        return value
    }

    /// What the source holds at a key for an optional attribute: absent, null or a value.
    @inlinable
    public func field<V: ImportDecodable>(_ type: V.Type, _ keyPath: String, attribute: String) throws -> ImportField<V> {
        try scalar(V.self, keyPath)
    }

    /// A `Codable` attribute's value at a key, decoded as its type decodes; nil when absent or null.
    public func codable<V: Decodable>(_ type: V.Type, _ keyPath: String, attribute: String) throws -> V? {
        guard case .value(let decoder) = try nested(keyPath) else { return nil }
        return try decodeCodable(V.self, decoder, keyPath)
    }

    /// A `Codable` optional attribute's value at a key: absent, null or a value.
    public func codableField<V: Decodable & Sendable & Hashable>(_ type: V.Type, _ keyPath: String, attribute: String) throws -> ImportField<V> {
        switch try nested(keyPath) {
        case .absent: return .absent
        case .null: return .null
        case .value(let decoder): return .value(try decodeCodable(V.self, decoder, keyPath))
        }
    }

    /// The related sources at a relationship's key: nested objects or IDs (one or an array each);
    /// nil when the key is absent, `.objects([])` for null.
    public func relation<P: Decodable & Sendable & Hashable, ID: ImportDecodable>(_ type: ImportRelation<P, ID>.Type, _ keyPath: String,
                                                                                 relationship: String) throws -> ImportRelation<P, ID>? {
        switch try nested(keyPath) {
        case .absent: return nil
        case .null: return .objects([])
        case .value(let decoder):
            do {
                return try RelationBox<P, ID>(from: decoder).relation
            } catch let mismatch as RelationBox<P, ID>.Mixed {
                throw failure(keyPath, mismatch.reason)
            }
        }
    }

    // MARK: Lookup

    /// The scalar at a dotted key path. A key on the way that is missing or not an object makes it absent.
    // Inlinable, with what it calls, so that it is specialised for each attribute type in the
    // generated payload: generic, it cost a metadata lookup and a boxed value per key.
    @inlinable
    func scalar<V: ImportDecodable>(_ type: V.Type, _ keyPath: String) throws -> ImportField<V> {
        switch storage {
        case .object(let object):
            switch ImportValue.lookup(object, keyPath) {
            case .absent: return .absent
            case .null: return .null
            case .value(let raw):
                guard let value = V(importValue: raw) else { throw failure(keyPath, "expected \(V.importDescription), found \(ImportValue.describe(raw))") }
                return .value(value)
            }
        case .container(let source):
            guard let (container, key) = locate(keyPath, in: source.container) else { return .absent }
            // The value first: one lookup when it fits, which is what almost every source does.
            if let value = V.importDecode(from: KeyedScalar(container: container, key: key)) { return .value(value) }
            guard container.contains(key) else { return .absent }
            if try container.decodeNil(forKey: key) { return .null }
            throw failure(keyPath, "expected \(V.importDescription), found \(Self.describe(try container.superDecoder(forKey: key)))")
        }
    }

    /// A decoder of the value at a dotted key path, for values decoded as a whole.
    private func nested(_ keyPath: String) throws -> Nested {
        switch storage {
        case .object(let object):
            switch ImportValue.lookup(object, keyPath) {
            case .absent: return .absent
            case .null: return .null
            case .value(let raw):
                let path = codingPath + keyPath.split(separator: ".", omittingEmptySubsequences: false).map { NameKey(String($0)) }
                return .value(JSONObjectDecoder(raw, codingPath: path))
            }
        case .container(let source):
            guard let (container, key) = locate(keyPath, in: source.container), container.contains(key) else { return .absent }
            if try container.decodeNil(forKey: key) { return .null }
            return .value(try container.superDecoder(forKey: key))
        }
    }

    private enum Nested {
        case absent
        case null
        case value(any Decoder)
    }

    /// The container holding a dotted key path's last key, and that key; nil when a key on the
    /// way is missing, null or not an object.
    @inlinable
    func locate(_ keyPath: String, in root: KeyedDecodingContainer<NameKey>) -> (KeyedDecodingContainer<NameKey>, NameKey)? {
        guard ImportValue.isDotted(keyPath) else { return (root, NameKey(keyPath)) }
        var container = root
        var parts = keyPath.split(separator: ".", omittingEmptySubsequences: false)
        let last = NameKey(String(parts.removeLast()))
        for part in parts {
            guard let next = try? container.nestedContainer(keyedBy: NameKey.self, forKey: NameKey(String(part))) else { return nil }
            container = next
        }
        return (container, last)
    }

    private func decodeCodable<V: Decodable>(_ type: V.Type, _ decoder: any Decoder, _ keyPath: String) throws -> V {
        do {
            return try V(from: decoder)
        } catch let error as DecodingError {
            throw failure(keyPath, "it does not decode as \(V.self): \(Self.describe(error))")
        }
    }

    @usableFromInline
    func failure(_ keyPath: String, _ reason: String) -> StrataError {
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
    @usableFromInline
    static func describe(_ decoder: any Decoder) -> String {
        if let objectDecoder = decoder as? JSONObjectDecoder { return ImportValue.describe(objectDecoder.value) }
        if let value = try? decoder.singleValueContainer() {
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
    @usableFromInline
    struct NameKey: CodingKey {
        @usableFromInline let stringValue: String
        @inlinable init(_ name: String) { stringValue = name }
        @inlinable init?(stringValue: String) { self.stringValue = stringValue }
        @inlinable var intValue: Int? { nil }
        @inlinable init?(intValue: Int) { return nil }
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
            if let id = ID.importDecode(from: SingleValueScalar(container: container)) { self = .id(id); return }
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
