/// One model version: the contents of one version file.
public struct SchemaVersion: Hashable, Sendable {
    /// The version's name, as the migration chain names it.
    public var name: String
    /// The file it was read from.
    public var file: String
    /// Where `version:` is written.
    public var location: SourceLocation
    /// Entities in file order.
    public var entities: [Entity]
    /// `migration:` blocks, one per version migrated from.
    public var migrations: [MigrationHints]
    /// The seal, if the version has been locked.
    public var versionLock: VersionLock?
    /// `sync:` for every entity of the version that does not say otherwise.
    public var sync: Located<Bool>?

    /// Creates a version.
    public init(name: String, file: String, location: SourceLocation, entities: [Entity] = [],
                migrations: [MigrationHints] = [], versionLock: VersionLock? = nil) {
        self.name = name
        self.file = file
        self.location = location
        self.entities = entities
        self.migrations = migrations
        self.versionLock = versionLock
    }

    /// The entity with a name.
    public func entity(named name: String) -> Entity? { entities.first { $0.name == name } }

    /// The `migration:` block for the step from `version`, if one was written.
    public func migration(from version: String) -> MigrationHints? {
        migrations.first { $0.from.value == version }
    }

    /// The chain of ancestors of an entity, nearest first, stopping at a missing parent or a cycle.
    public func ancestors(of entity: Entity) -> [Entity] {
        Self.ancestors(of: entity, lookup: self.entity(named:))
    }

    /// The chain of ancestors of an entity, its parents found by `lookup`.
    static func ancestors(of entity: Entity, lookup: (String) -> Entity?) -> [Entity] {
        var result: [Entity] = []
        var seen: Set<String> = [entity.name]
        var current = entity
        while let parentName = current.parent?.value, !seen.contains(parentName), let parent = lookup(parentName) {
            result.append(parent)
            seen.insert(parentName)
            current = parent
        }
        return result
    }

    /// The root of an entity's hierarchy: the entity whose table it shares.
    public func root(of entity: Entity) -> Entity { ancestors(of: entity).last ?? entity }
}

/// A version's entities by name, for work that looks many of them up (every entity's shape): one
/// hash lookup each instead of a search of the version's list.
package struct EntityIndex {
    private let entities: [String: Entity]

    /// The index of `version`'s entities (the first of a name, as ``SchemaVersion/entity(named:)``).
    package init(_ version: SchemaVersion) {
        entities = Dictionary(version.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The entity with a name.
    package func entity(named name: String) -> Entity? { entities[name] }
}

extension SchemaVersion {
    /// Sets each entity's ``Entity/isSynced``: its own `sync:`, else its nearest ancestor's, else
    /// the version's (false when nothing says).
    public mutating func resolveSync() {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let versionSync = sync?.value ?? false
        // Bounded, as a cycle of parents is reported by the validator, not followed forever.
        func synced(_ entity: Entity, depth: Int) -> Bool {
            if let own = entity.sync?.value { return own }
            if depth < byName.count, let parent = entity.parent.flatMap({ byName[$0.value] }) { return synced(parent, depth: depth + 1) }
            return versionSync
        }
        for index in entities.indices { entities[index].isSynced = synced(entities[index], depth: 0) }
    }
}
