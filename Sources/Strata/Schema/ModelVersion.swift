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

    /// Describes a version. Without `versionLock`, the lock is made of the entities' own ``EntityDescription/lock``s.
    public init(_ name: String, entities: [EntityDescription], configurations: [String: [String]] = [:], versionLock: VersionLock? = nil) {
        self.name = name
        self.entities = entities
        self.configurations = configurations
        self.versionLock = versionLock ?? VersionLock(Dictionary(
            entities.compactMap { entity in entity.lock.map { (entity.name, $0) } }, uniquingKeysWith: { first, _ in first }))
    }

    /// The entity with a name.
    public func entity(named name: String) -> EntityDescription? { entities.first { $0.name == name } }
}
