/// A hint about one property in a `migration:` block.
public struct PropertyHint: Hashable, Sendable {
    /// The property's name in the new version.
    public var name: Located<String>
    /// Its name in the old version, when it was renamed.
    public var renamedFrom: Located<String>?

    /// Creates a hint.
    public init(name: Located<String>, renamedFrom: Located<String>?) {
        self.name = name
        self.renamedFrom = renamedFrom
    }
}

/// What a `migration:` block says about one entity.
public struct EntityHint: Hashable, Sendable {
    /// The entity's name: in the new version, or in the old one when it is deleted.
    public var name: Located<String>
    /// Its name in the old version, when it was renamed.
    public var renamedFrom: Located<String>?
    /// Whether the old entity is dropped with its rows.
    public var isDeleted: Bool
    /// Whether the app supplies the step for this entity (`transform: custom`).
    public var isCustom: Bool
    /// Attribute hints.
    public var attributes: [PropertyHint]
    /// Relationship hints.
    public var relationships: [PropertyHint]

    /// Creates an entity hint.
    public init(name: Located<String>, renamedFrom: Located<String>? = nil, isDeleted: Bool = false,
                isCustom: Bool = false, attributes: [PropertyHint] = [], relationships: [PropertyHint] = []) {
        self.name = name
        self.renamedFrom = renamedFrom
        self.isDeleted = isDeleted
        self.isCustom = isCustom
        self.attributes = attributes
        self.relationships = relationships
    }
}

/// A `migration:` block: how rows of version `from` become rows of the version that declares it.
public struct MigrationHints: Hashable, Sendable {
    /// The version migrated from.
    public var from: Located<String>
    /// Where the block starts.
    public var location: SourceLocation
    /// Per-entity hints, in file order.
    public var entities: [EntityHint]

    /// Creates a block.
    public init(from: Located<String>, location: SourceLocation, entities: [EntityHint]) {
        self.from = from
        self.location = location
        self.entities = entities
    }

    /// The hint for an entity of the new version, if any.
    public func hint(forEntity name: String) -> EntityHint? {
        entities.first { $0.name.value == name && !$0.isDeleted }
    }
}
