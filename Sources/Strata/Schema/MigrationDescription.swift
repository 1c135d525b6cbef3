/// What a version's `migration:` block says about the step from one earlier version: the renames,
/// deletions and custom steps the runtime cannot infer by comparing the two versions.
///
/// Everything the block does not mention is inferred: an entity or property with the same name in
/// both versions is the same one, a name only in the new version is added, a name only in the old
/// one is removed.
public struct MigrationDescription: Sendable, Hashable {
    /// The version the step starts from.
    public let sourceVersion: String
    /// Hints about single entities, in the block's order.
    public let entities: [EntityMigrationHint]

    /// Describes the step from `sourceVersion`.
    public init(from sourceVersion: String, entities: [EntityMigrationHint] = []) {
        self.sourceVersion = sourceVersion
        self.entities = entities
    }

    /// The hint for an entity of the new version (not for a deleted one).
    public func hint(forEntity name: String) -> EntityMigrationHint? {
        entities.first { $0.name == name && !$0.isDeleted }
    }

    /// Whether the block deletes the old entity with this name.
    public func deletes(_ oldName: String) -> Bool {
        entities.contains { $0.name == oldName && $0.isDeleted }
    }
}

/// What a migration block says about one entity.
public struct EntityMigrationHint: Sendable, Hashable {
    /// The entity's name in the new version (in the old one when it is deleted).
    public let name: String
    /// Its name in the old version, when it was renamed.
    public let renamedFrom: String?
    /// Whether the old entity is dropped with its rows.
    public let isDeleted: Bool
    /// Whether the app's custom step produces each new row (`transform: custom`).
    public let isCustom: Bool
    /// New property name to old property name, for attributes and relationships that were renamed.
    public let renamedProperties: [String: String]

    /// Describes a hint.
    public init(_ name: String, renamedFrom: String? = nil, deleted: Bool = false, custom: Bool = false,
                renamedProperties: [String: String] = [:]) {
        self.name = name
        self.renamedFrom = renamedFrom
        self.isDeleted = deleted
        self.isCustom = custom
        self.renamedProperties = renamedProperties
    }
}
