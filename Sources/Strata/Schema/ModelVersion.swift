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
    /// The `migration:` blocks of the version: hints for the step from each earlier version that
    /// has one.
    public let migrations: [MigrationDescription]

    /// Describes a version. Without `versionLock`, the lock is made of the entities' own ``EntityDescription/lock``s.
    public init(_ name: String, entities: [EntityDescription], configurations: [String: [String]] = [:], versionLock: VersionLock? = nil,
                migrations: [MigrationDescription] = []) {
        self.name = name
        self.entities = entities
        self.configurations = configurations
        self.migrations = migrations
        self.versionLock = versionLock ?? VersionLock(Dictionary(
            entities.compactMap { entity in entity.lock.map { (entity.name, $0) } }, uniquingKeysWith: { first, _ in first }))
    }

    /// The entity with a name.
    public func entity(named name: String) -> EntityDescription? { entities.first { $0.name == name } }

    /// An entity and its ancestors, the root first, each parent found by `lookup` (by default
    /// ``entity(named:)``); the chain stops at a parent missing or met before.
    package func lineage(of entity: EntityDescription, lookup: ((String) -> EntityDescription?)? = nil) -> [EntityDescription] {
        let lookup = lookup ?? { self.entity(named: $0) }
        var chain = [entity]
        var seen: Set<String> = [entity.name]
        while let name = chain[0].parent, let next = lookup(name), seen.insert(name).inserted {
            chain.insert(next, at: 0)
        }
        return chain
    }

    /// The entities a configuration holds: `Default` holds every entity unless the model lists
    /// it; nil for a configuration the version does not have.
    func entities(ofConfiguration configuration: String) -> Set<String>? {
        if configuration == "Default" {
            return configurations["Default"].map(Set.init) ?? Set(entities.map(\.name))
        }
        return configurations[configuration].map(Set.init)
    }

    /// The hints for the step from `source`, if the version has a block for it.
    func migration(from source: String) -> MigrationDescription? {
        migrations.first { $0.sourceVersion == source }
    }
}
