import Foundation
import Synchronization
import Testing
@testable import Strata

/// A schema history whose older versions count how often they are built.
private final class BuildCounter: Sendable {
    let built = Mutex<[String]>([])

    func history(versions: [ModelVersion], current: ModelVersion) -> SchemaHistory {
        let byName = Dictionary(uniqueKeysWithValues: versions.map { ($0.name, $0) })
        return SchemaHistory(model: "Zoo", versionNames: versions.map(\.name) + [current.name], migrationChain: MigrationChain(versions.map(\.name) + [current.name]),
                             current: current, entityTypes: [Person.self, Animal.self, Dog.self, Cat.self]) { [self] name in
            built.withLock { $0.append(name) }
            return byName[name]
        }
    }
}

@Suite("Schema history")
@MainActor
struct SchemaHistoryTests {
    static let locked = ModelVersion("V1", entities: Zoo.v1.entities.map { entity in
        EntityDescription(entity.name, abstract: entity.isAbstract, parent: entity.parent, attributes: entity.attributes,
                          relationships: entity.relationships, uniqueness: entity.uniqueness, lock: [1, 2, 3, UInt64(entity.name.count)])
    })

    @Test func aVersionWithoutAnExplicitLockTakesItsEntitiesLocks() {
        #expect(Self.locked.versionLock.entries["Person"] == [1, 2, 3, 6])
        #expect(Self.locked.versionLock.entries.count == Zoo.v1.entities.count)
        #expect(ModelVersion("V1", entities: Zoo.v1.entities, versionLock: ["Person": [9, 9, 9, 9]]).versionLock.entries == ["Person": [9, 9, 9, 9]])
    }

    @Test func lockTextReadsBackToTheSameLock() {
        let lock: VersionLock = ["Person": [0x1b59d511019695cf, 0, 0xffffffffffffffff, 7], "Dog": [1, 2, 3, 4]]
        #expect(VersionLock(lock.description) == lock)
        #expect(VersionLock("") == VersionLock([:]))
        for bad in ["Person", "Person:", "Person:xyz", ":1,2", "Person:1;Person:2", "Person:1,,2", "Person:1:2"] {
            #expect(VersionLock(bad) == nil, "\(bad)")
        }
    }

    @Test func opensACurrentStoreWithoutBuildingOlderVersions() throws {
        let counter = BuildCounter()
        let older = ModelVersion("V0", entities: Zoo.v1.entities, versionLock: ["Person": [5, 5, 5, 5]])
        let url = temporaryStoreURL()
        try DataStack(counter.history(versions: [older], current: Zoo.v1)).addStorageAndWait(SQLiteStore(fileURL: url))
        try DataStack(counter.history(versions: [older], current: Zoo.v1)).addStorageAndWait(SQLiteStore(fileURL: url))
        #expect(counter.built.withLock { $0 } == [])
    }

    @Test func recognisesAnOlderStoreByTheVersionItRecords() throws {
        let url = temporaryStoreURL()
        try DataStack(Zoo.schemaHistory).addStorageAndWait(SQLiteStore(fileURL: url))
        let counter = BuildCounter()
        let other = ModelVersion("V0", entities: Zoo.v1.entities, versionLock: ["Person": [5, 5, 5, 5]])
        let current = ModelVersion("V2", entities: Zoo.v1.entities, versionLock: ["Person": [9, 9, 9, 9]])
        #expect(throws: StrataError.migrationRequired(file: url.path, storeVersion: "V1", currentVersion: "V2")) {
            try DataStack(counter.history(versions: [other, Zoo.v1], current: current)).addStorageAndWait(SQLiteStore(fileURL: url))
        }
        // Only the recorded version is looked up (planning the migration looks it up again).
        #expect(Set(counter.built.withLock { $0 }) == ["V1"])
    }

    @Test func versionsAreLookedUpByName() {
        let counter = BuildCounter()
        let current = ModelVersion("V2", entities: Zoo.v1.entities, versionLock: ["Person": [9, 9, 9, 9]])
        let history = counter.history(versions: [Zoo.v1], current: current)
        #expect(history.versionNames == ["V1", "V2"])
        #expect(history.version(named: "V2") == current)
        #expect(history.version(named: "V3") == nil)
        #expect(counter.built.withLock { $0 } == [])
        #expect(history.versions.map(\.name) == ["V1", "V2"])
        #expect(history.version(matching: Zoo.v1.versionLock) == Zoo.v1)
        #expect(history.version(matching: ["Person": [1, 1, 1, 1]]) == nil)
    }
}
