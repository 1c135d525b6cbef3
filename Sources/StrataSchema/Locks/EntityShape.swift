/// Everything about one entity that decides how it is stored, and nothing else: the input of its
/// version lock and the record `strata lock` keeps so `strata verify` can name what changed.
///
/// Properties are keyed by storage key, so renaming a Swift name over an unchanged storage key
/// changes no shape; import blocks, virtual and transient attributes and Codable Swift type names are left out.
public struct EntityShape: Hashable, Sendable, Codable {
    /// A stored attribute.
    public struct AttributeShape: ShapeMember {
        /// The column name.
        public var storageKey: String
        /// The stored type.
        public var type: AttributeType
        /// Whether nil is allowed.
        public var optional: Bool
        /// Canonical default text.
        public var defaultValue: String?
        /// Per-insert initial value.
        public var initial: InitialValue?
        /// Whether indexed.
        public var indexed: Bool
        /// Whether unique on its own.
        public var unique: Bool
        /// Codable encoding.
        public var coder: CodableCoder?
        /// `hashModifier:` text, written to the lock only when there is one.
        public var hashModifier: String?
        /// `merge:`, written to the lock only when there is one.
        public var merge: MergeRule?

        /// Part of lock format 1: never reorder, rename or drop a field (add a new format instead).
        /// `merge` comes last and only when set, so attributes without it lock as they always did.
        public var fields: [(name: String, value: String?)] {
            [("type", type.rawValue), ("optional", String(optional)), ("default", defaultValue), ("initial", initial?.rawValue),
             ("indexed", String(indexed)), ("unique", String(unique)), ("coder", coder?.rawValue)]
                + (merge.map { [("merge", $0.rawValue)] } ?? [])
        }
    }

    /// A stored relationship.
    public struct RelationshipShape: ShapeMember {
        /// The column or join-table name.
        public var storageKey: String
        /// The destination entity.
        public var destination: String
        /// The inverse's storage key.
        public var inverse: String
        /// To-one, unordered or ordered.
        public var kind: RelationshipKind
        /// What deleting does.
        public var deleteRule: DeleteRule
        /// Fewest destinations.
        public var minCount: Int?
        /// Most destinations.
        public var maxCount: Int?
        /// `hashModifier:` text, written to the lock only when there is one.
        public var hashModifier: String?

        /// Part of lock format 1: never reorder, rename or drop a field (add a new format instead).
        public var fields: [(name: String, value: String?)] {
            [("destination", destination), ("inverse", inverse), ("kind", kind.rawValue), ("deleteRule", deleteRule.rawValue),
             ("min", minCount.map(String.init)), ("max", maxCount.map(String.init))]
        }
    }

    /// The entity (and table) name.
    public var entity: String
    /// Whether abstract.
    public var abstract: Bool
    /// The parent entity.
    public var parent: String?
    /// Stored attributes, sorted by storage key.
    public var attributes: [AttributeShape]
    /// Relationships, sorted by storage key.
    public var relationships: [RelationshipShape]
    /// Uniqueness groups as storage keys, each sorted, the groups sorted.
    public var uniqueness: [[String]]
    /// The entity's `hashModifier:` text, written to the lock only when there is one.
    public var hashModifier: String?
    /// Whether the entity syncs (`sync:`); nil when it does not, so that a record sealed before
    /// sync existed reads the same.
    public var sync: Bool?
    /// The storage key of the `owner:` attribute, when the entity names one.
    public var owner: String?

    /// The shape of `entity` as declared in `version`.
    public init(_ entity: Entity, in version: SchemaVersion) {
        self.init(entity, lookup: version.entity(named:))
    }

    /// The shape of `entity`, its relatives found in `index` (for the shapes of many entities).
    package init(_ entity: Entity, in index: EntityIndex) {
        self.init(entity, lookup: index.entity(named:))
    }

    /// The shape of `entity`, its destinations and ancestors found by `lookup`.
    private init(_ entity: Entity, lookup: (String) -> Entity?) {
        self.entity = entity.name
        self.abstract = entity.isAbstract
        self.parent = entity.parent?.value
        self.hashModifier = entity.hashModifier
        self.sync = entity.isSynced ? true : nil
        let lineage = [entity] + SchemaVersion.ancestors(of: entity, lookup: lookup)
        self.owner = entity.owner.map { owner in lineage.lazy.compactMap { $0.attribute(named: owner.value) }.first?.storageKey ?? owner.value }
        self.attributes = entity.attributes.filter(\.isStored).map {
            AttributeShape(storageKey: $0.storageKey, type: $0.type, optional: $0.isOptional, defaultValue: $0.defaultValue,
                           initial: $0.initial, indexed: $0.isIndexed, unique: $0.isUnique, coder: $0.coder, hashModifier: $0.hashModifier,
                           merge: $0.merge)
        }.sorted { $0.storageKey < $1.storageKey }
        self.relationships = entity.relationships.map { relationship in
            let destination = lookup(relationship.destination)
            let lineage = destination.map { [$0] + SchemaVersion.ancestors(of: $0, lookup: lookup) } ?? []
            let inverse = lineage.lazy.compactMap { $0.relationship(named: relationship.inverse) }.first
            return RelationshipShape(storageKey: relationship.storageKey, destination: relationship.destination,
                                     inverse: inverse?.storageKey ?? relationship.inverse, kind: relationship.kind,
                                     deleteRule: relationship.deleteRule, minCount: relationship.minCount, maxCount: relationship.maxCount,
                                     hashModifier: relationship.hashModifier)
        }.sorted { $0.storageKey < $1.storageKey }
        self.uniqueness = Self.uniqueness(of: entity, lookup: lookup)
    }

    /// An entity's uniqueness groups as its shape holds them, without the rest of the shape.
    package static func uniqueness(of entity: Entity, in index: EntityIndex) -> [[String]] {
        uniqueness(of: entity, lookup: index.entity(named:))
    }

    private static func uniqueness(of entity: Entity, lookup: (String) -> Entity?) -> [[String]] {
        let lineage = [entity] + SchemaVersion.ancestors(of: entity, lookup: lookup)
        let storageKey = { (name: String) in lineage.lazy.compactMap { $0.attribute(named: name) }.first?.storageKey ?? name }
        return entity.uniqueness.map { $0.map { storageKey($0.value) }.sorted() }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// The shapes of every entity of a version, by entity name.
    public static func shapes(of version: SchemaVersion) -> [String: EntityShape] {
        let index = EntityIndex(version)
        return Dictionary(version.entities.map { ($0.name, EntityShape($0, in: index)) }, uniquingKeysWith: { first, _ in first })
    }
}

/// An attribute or relationship of a shape: a storage key and its other stored fields, in the
/// order the lock encoding writes them.
public protocol ShapeMember: Hashable, Sendable, Codable {
    /// The column or join-table name that identifies the member.
    var storageKey: String { get }
    /// Field name and value text, in lock-encoding order; nil when absent.
    var fields: [(name: String, value: String?)] { get }
    /// `hashModifier:` text, written after the fields only when there is one.
    var hashModifier: String? { get }
}
