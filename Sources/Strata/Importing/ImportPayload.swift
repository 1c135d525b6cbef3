/// A generated `<Entity>.ImportPayload`: one object's import source, decoded from JSON as the
/// entity's `import:` block maps it. It is `Sendable`, so it can be decoded on any actor and passed
/// into an asynchronous transaction, and `Hashable`, so it can key caches and be compared in tests.
/// A `[String: Any]` from `JSONSerialization` converts with `init(jsonObject:)`, which the
/// dictionary forms of the `import…` methods call for you.
public protocol JSONImportPayload: Decodable, Sendable, Hashable {
    /// The payload one source holds, read key by key: generated payloads read every key of their
    /// `import:` block here, and both `init(from:)` and the dictionary forms of the `import…`
    /// methods (which read `[String: Any]` sources directly, no decoder between) call it.
    init(reading source: ImportPayloadReader) throws
}

extension JSONImportPayload {
    /// Decodes the payload from the source's decoder, for payloads written without a reader.
    public init(reading source: ImportPayloadReader) throws {
        try self.init(from: source.decoder)
    }

    /// The payload a JSON-like dictionary holds, converted as a `JSONDecoder` would decode it;
    /// throws `invalidImportSource` naming the entity and the key when it does not fit.
    public init(jsonObject: [String: Any]) throws {
        try self.init(from: JSONObjectDecoder(jsonObject))
    }
}

/// What a source holds for an optional attribute: nothing (the attribute is left as it is), JSON
/// `null` (the attribute is cleared), or a value.
public enum ImportField<Value: Sendable & Hashable>: Sendable, Hashable {
    /// The key is not in the source.
    case absent
    /// The key holds JSON `null`.
    case null
    /// The key holds a value.
    case value(Value)

    /// What to assign: nil to leave the attribute as it is, `.some(nil)` to clear it, or the value.
    public var replacement: Value?? {
        switch self {
        case .absent: return nil
        case .null: return .some(nil)
        case .value(let value): return .some(value)
        }
    }
}

/// What a source holds for a relationship: nested objects to import through the destination's
/// importer, or unique IDs of existing destination objects. JSON `null` is `.objects([])`, which
/// clears the relationship. `ID` is `Never` when the destination has no unique ID.
public enum ImportRelation<Payload: Sendable & Hashable, ID: Sendable & Hashable>: Sendable, Hashable {
    /// Nested sources, in the order the source lists them.
    case objects([Payload])
    /// IDs of existing objects, in the order the source lists them.
    case ids([ID])
}
