/// Whether one version's lock still matches the version, and if not, what changed.
public struct LockStatus: Hashable, Sendable, Codable {
    /// Sealed and matching, not sealed yet, or changed since sealing.
    public enum State: String, Hashable, Sendable, Codable {
        /// Every entity matches its lock.
        case sealed
        /// The file has no `versionLock:`.
        case unsealed
        /// Some entity no longer matches, or entities were added or removed.
        case changed
    }

    /// One entity that no longer matches its lock.
    public struct EntityDrift: Hashable, Sendable, Codable {
        /// The entity's name.
        public var entity: String
        /// The lock written in the file, if the entity had one.
        public var sealed: LockHash?
        /// The lock the entity has now, if it still exists.
        public var current: LockHash?
        /// What changed, when the sealed record could tell; empty otherwise.
        public var changes: [ShapeChange]
    }

    /// The version's name.
    public var version: String
    /// The version file.
    public var file: String
    /// Where the lock (or, when unsealed, the version name) is written.
    public var location: SourceLocation
    /// The verdict.
    public var state: State
    /// For a changed version, each entity that differs, sorted by name.
    public var drift: [EntityDrift]
    /// For a changed version, whether a sealed record named the changes.
    public var explained: Bool
    /// For an unsealed version, the locks it would get.
    public var proposed: [String: LockHash]
    /// For a changed version whose lock is exactly another version's: that version (its file
    /// was most likely copied to start this one, lock and all).
    public var lockOf: String?
}

/// Compares versions with their locks.
public enum LockVerifier {
    /// The lock status of one version of a valid model.
    public static func status(of version: SchemaVersion, model: String, directory: String) -> LockStatus {
        status(of: version, model: model, directory: directory, proposing: true)
    }

    /// The version's lock status; `proposing: false` leaves an unsealed version's `proposed`
    /// locks empty, for callers that only need its state (generation, which computes them itself).
    /// `current` holds entities' locks in the current format already known (kept by the build
    /// plugin's cache for a version file whose bytes did not change): an entity whose sealed lock
    /// is its known one matches without being hashed again.
    static func status(of version: SchemaVersion, model: String, directory: String, proposing: Bool,
                       current: [String: LockHash] = [:]) -> LockStatus {
        let index = EntityIndex(version)
        let currentLock = { (entity: Entity) in current[entity.name] ?? LockFormat.current.lock(EntityShape(entity, in: index)) }
        guard let lock = version.versionLock else {
            return LockStatus(version: version.name, file: version.file, location: version.location, state: .unsealed, drift: [], explained: false,
                              proposed: proposing ? Dictionary(version.entities.map { ($0.name, currentLock($0)) }, uniquingKeysWith: { first, _ in first }) : [:])
        }
        var drift: [LockStatus.EntityDrift] = []
        for name in Set(version.entities.map(\.name)).union(lock.entries.keys).sorted() {
            let sealed = lock.entries[name]?.value
            let entity = index.entity(named: name)
            if let sealed, let entity, current[name] == sealed || matches(EntityShape(entity, in: index), sealed) { continue }
            drift.append(.init(entity: name, sealed: sealed, current: entity.map(currentLock), changes: []))
        }
        guard !drift.isEmpty else {
            return LockStatus(version: version.name, file: version.file, location: lock.location, state: .sealed,
                              drift: [], explained: false, proposed: [:])
        }
        let shapes = EntityShape.shapes(of: version)
        var explained = false
        if let record = SealedRecord.read(directory: directory, version: version.name), recordMatches(record, lock) {
            explained = true
            let sealedShapes = Dictionary(record.entities.map { ($0.entity, $0) }, uniquingKeysWith: { a, _ in a })
            for index in drift.indices {
                let name = drift[index].entity
                switch (sealedShapes[name], shapes[name]) {
                case let (before?, after?): drift[index].changes = after.changes(since: before)
                case (nil, _?): drift[index].changes = [ShapeChange(kind: .added, subject: "entity")]
                case (_?, nil): drift[index].changes = [ShapeChange(kind: .removed, subject: "entity")]
                case (nil, nil): break
                }
            }
        }
        return LockStatus(version: version.name, file: version.file, location: driftLocation(drift, in: version) ?? lock.location,
                          state: .changed, drift: drift, explained: explained, proposed: [:])
    }

    /// Where the first change is written: the changed attribute or relationship when the sealed
    /// record names it, otherwise the changed entity; nil for an entity no longer declared.
    private static func driftLocation(_ drift: [LockStatus.EntityDrift], in version: SchemaVersion) -> SourceLocation? {
        for entry in drift {
            guard let entity = version.entities.first(where: { $0.name == entry.entity }) else { continue }
            for change in entry.changes where change.kind != .removed {
                if let attribute = entity.attributes.first(where: { change.subject == "attribute '\($0.storageKey)'" || change.subject == "attribute '\($0.name)'" }) {
                    return attribute.location
                }
                if let relationship = entity.relationships.first(where: { change.subject == "relationship '\($0.name)'" }) {
                    return relationship.location
                }
            }
            return entity.location
        }
        return nil
    }

    /// Whether `shape` hashes to `lock` in any format Strata has ever written.
    public static func matches(_ shape: EntityShape, _ lock: LockHash) -> Bool {
        LockFormat.allCases.contains { $0.lock(shape) == lock }
    }

    /// A record explains a lock only if it holds exactly the locked entities and each hashes to its lock.
    private static func recordMatches(_ record: SealedRecord, _ lock: VersionLock) -> Bool {
        guard Set(record.entities.map(\.entity)) == Set(lock.entries.keys) else { return false }
        return record.entities.allSatisfy { shape in lock.entries[shape.entity].map { matches(shape, $0.value) } ?? false }
    }
}
