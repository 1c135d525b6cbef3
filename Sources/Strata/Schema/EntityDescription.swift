/// One entity of one model version, as the generator emits it.
public struct EntityDescription: Sendable, Hashable {
    /// The entity's name; a root entity's table has this name.
    public let name: String
    /// Whether objects of exactly this entity are never created.
    public let isAbstract: Bool
    /// The parent entity, if any.
    public let parent: String?
    /// Own stored attributes, in declaration order (virtual attributes are not described).
    public let attributes: [AttributeDescription]
    /// Own relationships, in declaration order.
    public let relationships: [RelationshipDescription]
    /// Uniqueness groups, as storage keys.
    public let uniqueness: [[String]]

    /// Describes an entity.
    public init(_ name: String, abstract: Bool = false, parent: String? = nil, attributes: [AttributeDescription] = [],
                relationships: [RelationshipDescription] = [], uniqueness: [[String]] = []) {
        self.name = name
        self.isAbstract = abstract
        self.parent = parent
        self.attributes = attributes
        self.relationships = relationships
        self.uniqueness = uniqueness
    }
}

/// An entity's SHA-256 lock: four 64-bit words, as `strata lock` writes them.
public struct VersionLock: Sendable, Hashable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// Entity name to its four words.
    public let entries: [String: [UInt64]]

    /// `["Person": [0x..., 0x..., 0x..., 0x...], ...]`.
    public init(dictionaryLiteral elements: (String, [UInt64])...) {
        entries = Dictionary(elements, uniquingKeysWith: { first, _ in first })
    }

    /// Wraps a dictionary.
    public init(_ entries: [String: [UInt64]]) {
        self.entries = entries
    }

    /// The lock in the text form stored in a store's metadata.
    public var description: String {
        entries.keys.sorted().map { name in
            name + ":" + entries[name]!.map { String($0, radix: 16) }.joined(separator: ",")
        }.joined(separator: ";")
    }
}

/// One model version: its entities, configurations and lock.
public struct ModelVersion: Sendable, Hashable {
    /// The version's name.
    public let name: String
    /// Every entity.
    public let entities: [EntityDescription]
    /// Configuration name to entity names; entities in no configuration belong to `Default` only.
    public let configurations: [String: [String]]
    /// The version's lock.
    public let versionLock: VersionLock

    /// Describes a version.
    public init(_ name: String, entities: [EntityDescription], configurations: [String: [String]] = [:], versionLock: VersionLock) {
        self.name = name
        self.entities = entities
        self.configurations = configurations
        self.versionLock = versionLock
    }

    /// The entity with a name.
    public func entity(named name: String) -> EntityDescription? { entities.first { $0.name == name } }
}

/// The order versions follow each other: `[V1, V2, V3]` or `["V1": "V3", "V2": "V3"]`.
public struct MigrationChain: Sendable, Hashable, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    /// Each version's successor.
    public let successors: [String: String]
    /// Every version named.
    public let versions: [String]

    /// A linear chain, oldest first.
    public init(arrayLiteral elements: String...) {
        self.init(elements)
    }

    /// A linear chain, oldest first.
    public init(_ elements: [String]) {
        versions = elements
        successors = Dictionary(zip(elements, elements.dropFirst()).map { ($0, $1) }, uniquingKeysWith: { first, _ in first })
    }

    /// A tree: each key migrates to its value.
    public init(dictionaryLiteral elements: (String, String)...) {
        successors = Dictionary(elements, uniquingKeysWith: { first, _ in first })
        var names: [String] = []
        for (from, to) in elements {
            for name in [from, to] where !names.contains(name) { names.append(name) }
        }
        versions = names
    }
}
