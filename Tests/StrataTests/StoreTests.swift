import Foundation
import Testing
@testable import Strata

@Suite("Storages")
@MainActor
struct StoreTests {
    static func history(model: String = "Zoo", versions: [ModelVersion] = [Zoo.v1], current: String = "V1") -> SchemaHistory {
        SchemaHistory(model: model, versions: versions, migrationChain: MigrationChain(versions.map(\.name)),
                      current: current, entityTypes: [Person.self, Animal.self, Dog.self, Cat.self])
    }

    static let v2 = ModelVersion("V2", entities: Zoo.v1.entities, versionLock: ["Person": [9, 9, 9, 9]])

    @Test func aFileStoreKeepsItsObjects() async throws {
        let url = temporaryStoreURL()
        do {
            let stack = DataStack(Zoo.schemaHistory)
            try stack.addStorageAndWait(SQLiteStore(fileURL: url))
            try await addPeople(["Ann", "Bob"], to: stack)
        }
        let reopened = DataStack(Zoo.schemaHistory)
        try await reopened.addStorage(SQLiteStore(fileURL: url))
        #expect(try reopened.fetchAll(From<Person>().orderBy(.ascending(\.name))).map(\.name) == ["Ann", "Bob"])
        #expect(reopened.debugDescription == "DataStack(Zoo V1: Default: \(url.path))")
    }

    /// Connections read a file through a memory map (1 GiB of it on 64-bit systems), writers and
    /// readers alike; the mapping changes nothing a reader sees.
    @Test func connectionsMapTheFileTheyRead() async throws {
        let url = temporaryStoreURL()
        let stack = DataStack(Zoo.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: url))
        try await addPeople(["Ann", "Bob"], to: stack)
        for readOnly in [false, true] {
            let connection = try SQLiteConnection(path: url.path, readOnly: readOnly)
            #expect(try StoreOpener.rows(connection, "PRAGMA mmap_size") == [[.integer(MemoryLayout<Int>.size >= 8 ? 1 << 30 : 0)]])
        }
        let names = try await stack.read { reader in try reader.fetchAll(From<Person>().orderBy(.ascending(\.name))).map(\.name) }
        #expect(names == ["Ann", "Bob"])
    }

    @Test func aFileThatIsNotSQLiteIsRefused() throws {
        let url = temporaryStoreURL()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let garbage = Data(repeating: 0x42, count: 4096)
        try garbage.write(to: url)
        let stack = DataStack(Zoo.schemaHistory)
        #expect(throws: StrataError.notAStore(file: url.path, reason: "the file is not a SQLite database (file is not a database)")) {
            try stack.addStorageAndWait(SQLiteStore(fileURL: url))
        }
        #expect(try Data(contentsOf: url) == garbage)
    }

    @Test func aSQLiteFileStrataDidNotWriteIsRefused() throws {
        let url = temporaryStoreURL()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let other = try SQLiteConnection(path: url.path, readOnly: false)
        try other.execute("CREATE TABLE notes (text TEXT)")
        let stack = DataStack(Zoo.schemaHistory)
        #expect(throws: StrataError.notAStore(file: url.path, reason: "it is a SQLite database, but not one Strata created")) {
            try stack.addStorageAndWait(SQLiteStore(fileURL: url))
        }
    }

    @Test func anotherModelOrVersionIsNamed() throws {
        let url = temporaryStoreURL()
        try DataStack(Zoo.schemaHistory).addStorageAndWait(SQLiteStore(fileURL: url))
        #expect(throws: StrataError.differentModel(file: url.path, storeModel: "Zoo", expectedModel: "Farm")) {
            try DataStack(Self.history(model: "Farm")).addStorageAndWait(SQLiteStore(fileURL: url))
        }
        #expect(throws: StrataError.migrationRequired(file: url.path, storeVersion: "V1", currentVersion: "V2")) {
            try DataStack(Self.history(versions: [Zoo.v1, Self.v2], current: "V2")).addStorageAndWait(SQLiteStore(fileURL: url))
        }
        #expect(throws: StrataError.newerStoreVersion(file: url.path, storeVersion: "V1", currentVersion: "V2")) {
            try DataStack(Self.history(versions: [Self.v2], current: "V2")).addStorageAndWait(SQLiteStore(fileURL: url))
        }
        // A version the model has, whose lock the store's does not match: the model changed under it.
        let changed = ModelVersion("V1", entities: Zoo.v1.entities, versionLock: ["Person": [7, 7, 7, 7]])
        #expect(throws: StrataError.unknownStoreVersion(file: url.path, model: "Zoo", storeVersion: "V1")) {
            try DataStack(Self.history(versions: [changed, Self.v2], current: "V2")).addStorageAndWait(SQLiteStore(fileURL: url))
        }
    }

    @Test func recreatingOnMismatchStartsEmpty() async throws {
        let url = temporaryStoreURL()
        let first = DataStack(Zoo.schemaHistory)
        try first.addStorageAndWait(SQLiteStore(fileURL: url))
        try await addPeople(["Ann"], to: first)
        let farm = DataStack(Self.history(model: "Farm"))
        try farm.addStorageAndWait(SQLiteStore(fileURL: url, localStorageOptions: .recreateStoreOnModelMismatch))
        #expect(try farm.fetchCount(From<Person>()) == 0)
    }

    @Test func storageMistakes() throws {
        let stack = DataStack(Zoo.schemaHistory)
        try stack.addStorageAndWait(InMemoryStore())
        #expect(throws: StrataError.storageAlreadyAdded(configuration: "Default")) { try stack.addStorageAndWait(InMemoryStore()) }
        #expect(throws: StrataError.unknownConfiguration("Cache", available: ["Default"])) {
            try stack.addStorageAndWait(InMemoryStore(configuration: "Cache"))
        }
        let empty = DataStack(Zoo.schemaHistory)
        #expect(throws: StrataError.noStorage(entity: "Person")) { try empty.fetchAll(From<Person>()) }
    }

    /// A storage type Strata cannot open is refused by name, never opened as something else.
    @Test func aStorageStrataCannotOpenIsRefused() async throws {
        struct CloudStore: StorageInterface {
            var configuration: String? { nil }
            var description: String { "CloudStore" }
        }
        let stack = DataStack(Zoo.schemaHistory)
        #expect(throws: StrataError.unsupportedStorage("CloudStore")) { try stack.addStorageAndWait(CloudStore()) }
        await #expect(throws: StrataError.unsupportedStorage("CloudStore")) { try await stack.addStorage(CloudStore()) }
        #expect(StrataError.unsupportedStorage("CloudStore").description
                == "a storage of type 'CloudStore' cannot be opened: Strata opens SQLiteStore and InMemoryStore; nothing was added")
        #expect(throws: StrataError.noStorage(entity: "Person")) { try stack.fetchAll(From<Person>()) }
        try stack.addStorageAndWait(InMemoryStore())
        #expect(try stack.fetchCount(From<Person>()) == 0)
    }

    @Test func configurationsRouteEntitiesToTheirStorages() async throws {
        let stack = DataStack(splitHistory)
        try stack.addStorageAndWait(InMemoryStore(configuration: "People"))
        try stack.addStorageAndWait(InMemoryStore(configuration: "Pets"))
        try await stack.perform { transaction in
            transaction.create(Into<Person>()).name = "Ann"
            transaction.create(Into<Dog>()).species = "dog"
        }
        #expect(try stack.fetchCount(From<Person>()) == 1)
        #expect(try stack.fetchCount(From<Animal>("Pets")) == 1)
        #expect(throws: StrataError.notInConfiguration(entity: "Dog", configuration: "People", holding: ["Pets"])) {
            try stack.fetchAll(From<Dog>("People"))
        }
        #expect(StrataError.notInConfiguration(entity: "Dog", configuration: "People", holding: ["Pets"]).description
            == "configuration 'People' does not hold 'Dog'; it is stored in Pets")
        // A configuration that holds the entity but has no storage yet.
        #expect(throws: StrataError.noStorage(entity: "Person")) { try stack.fetchAll(From<Person>("Backup")) }
        let ann = try #require(try stack.fetchOne(From<Person>()))
        #expect(stack.configuration(of: ann) == "People")
        #expect(stack.configuration(of: ann.objectID(as: Person.self)) == "People")

        try stack.addStorageAndWait(InMemoryStore(configuration: "Backup"))
        #expect(throws: StrataError.ambiguousConfiguration(entity: "Person", configurations: ["People", "Backup"])) {
            try stack.queryValue(From<Person>().select(Int.self, .count(\.name)))
        }
        await #expect(throws: StrataError.ambiguousConfiguration(entity: "Person", configurations: ["People", "Backup"])) {
            try await stack.perform { transaction in transaction.create(Into<Person>()).name = "Where?" }
        }
        try await stack.perform { transaction in transaction.create(Into<Person>("Backup")).name = "Bob" }
        #expect(try stack.fetchAll(From<Person>("Backup")).map(\.name) == ["Bob"])
        #expect(try stack.fetchAll(From<Person>("People")).map(\.name) == ["Ann"])
    }

    /// CoreStore's `From<T>()` reads every storage that holds `T`.
    @Test func aFetchWithoutAConfigurationReadsEveryStorageOfTheEntity() async throws {
        let stack = DataStack(splitHistory)
        try stack.addStorageAndWait(InMemoryStore(configuration: "People"))
        try stack.addStorageAndWait(InMemoryStore(configuration: "Backup"))
        // One transaction per storage: writing one entity into two storages in one transaction is issue #17.
        for (configuration, names) in [("People", ["Cy", "Bob", "Ann"]), ("Backup", ["Ann", "Dee"])] {
            try await stack.perform { transaction in
                for name in names { transaction.create(Into<Person>(configuration)).name = name }
            }
        }
        let all = From<Person>()
        #expect(try stack.fetchAll(all.orderBy(.ascending(\.name))).map(\.name) == ["Ann", "Ann", "Bob", "Cy", "Dee"])
        let stores = try stack.fetchAll(all.orderBy(.ascending(\.name))).map { stack.configuration(of: $0) ?? "?" }
        // Equal sort values: the storage added first comes first.
        #expect(stores == ["People", "Backup", "People", "People", "Backup"])
        #expect(try stack.fetchAll(all.orderBy(.descending(\.name)).tweak { $0.offset = 1; $0.limit = 2 }).map(\.name) == ["Cy", "Bob"])
        #expect(try stack.fetchCount(all) == 5)
        #expect(try stack.fetchCount(all.where(\.name == "Ann")) == 2)
        #expect(try stack.fetchCount(all.tweak { $0.limit = 3 }) == 3)
        #expect(try stack.fetchObjectIDs(all.orderBy(.ascending(\.name))).count == 5)
        #expect(try stack.fetchOne(all.orderBy(.descending(\.name)))?.name == "Dee")
        var streamed: [String] = []
        try stack.fetchEach(all.orderBy(.ascending(\.name))) { streamed.append($0.name) }
        #expect(streamed == ["Ann", "Ann", "Bob", "Cy", "Dee"])
        var unordered: [String] = []
        try stack.fetchEach(all) { unordered.append($0.name) }
        #expect(unordered.sorted() == streamed)
        let renamed = try await stack.perform { transaction in
            let anns = try transaction.fetchAll(From<Person>().where(\.name == "Ann"))
            for ann in anns { ann.name = "Anne" }
            return anns.count
        }
        #expect(renamed == 2)
        #expect(try stack.fetchAll(all.orderBy(.ascending(\.name))).map(\.name) == ["Anne", "Anne", "Bob", "Cy", "Dee"])
    }

    /// `From<T>("A", "B")` reads the storages named, in that order; queries and list monitors
    /// read one storage, so naming several is an error that names them.
    @Test func aFetchCanNameSeveralConfigurations() async throws {
        let stack = DataStack(splitHistory)
        for configuration in ["People", "Backup", "Default"] { try stack.addStorageAndWait(InMemoryStore(configuration: configuration)) }
        for (configuration, name) in [("People", "Ann"), ("Backup", "Bob"), ("Default", "Cy")] {
            try await stack.perform { transaction in transaction.create(Into<Person>(configuration)).name = name }
        }
        let two = From<Person>("Backup", "People")
        #expect(two.configurations == ["Backup", "People"] && two.configuration == nil)
        #expect(two.description == "From<Person>(\"Backup\", \"People\")")
        #expect(two != From<Person>("People", "Backup"))
        #expect(try stack.fetchAll(two.orderBy(.ascending(\.name))).map(\.name) == ["Ann", "Bob"])
        #expect(try stack.fetchAll(two).map(\.name) == ["Bob", "Ann"], "unordered, the storages are read in the order named")
        #expect(try stack.fetchCount(From<Person>(configurations: ["Default"])) == 1)
        #expect(try stack.fetchCount(From<Person>(configurations: [])) == 3)
        // Of several configurations, those that do not hold the entity are skipped, as in
        // CoreStore; none holding it is the first one's error.
        #expect(try stack.fetchAll(From<Dog>("Default", "People")).isEmpty)
        #expect(throws: StrataError.notInConfiguration(entity: "Dog", configuration: "People", holding: ["Pets"])) {
            try stack.fetchAll(From<Dog>("People", "Backup"))
        }
        #expect(throws: StrataError.ambiguousConfiguration(entity: "Person", configurations: ["Backup", "People"])) {
            try stack.queryValue(two.select(Int.self, .count(\.name)))
        }
        #expect(throws: StrataError.ambiguousConfiguration(entity: "Person", configurations: ["Backup", "People"])) {
            try stack.monitorList(two.orderBy(.ascending(\.name)))
        }
        #expect(try stack.queryValue(From<Person>("Backup").select(Int.self, .count(\.name))) == 1)
    }

    /// CoreStore's `Into<T>()` infers the storage when one holds `T`; with
    /// `inferStoreIfPossible: false` and no configuration, the object goes to `Default`.
    @Test func intoInfersTheStorageOrUsesTheDefaultConfiguration() async throws {
        let stack = DataStack(splitHistory)
        try stack.addStorageAndWait(InMemoryStore(configuration: "People"))
        try await stack.perform { transaction in transaction.create(Into<Person>()).name = "Inferred" }
        #expect(try stack.fetchAll(From<Person>("People")).map(\.name) == ["Inferred"])
        await #expect(throws: StrataError.noStorage(entity: "Person")) {
            try await stack.perform { transaction in transaction.create(Into<Person>(nil, inferStoreIfPossible: false)).name = "Nowhere" }
        }
        try stack.addStorageAndWait(InMemoryStore(configuration: "Default"))
        try await stack.perform { transaction in transaction.create(Into<Person>(nil, inferStoreIfPossible: false)).name = "Default" }
        #expect(try stack.fetchAll(From<Person>("Default")).map(\.name) == ["Default"])
        await #expect(throws: StrataError.ambiguousConfiguration(entity: "Person", configurations: ["People", "Default"])) {
            try await stack.perform { transaction in transaction.create(Into<Person>()).name = "Which?" }
        }
        #expect(Into<Person>().inferStoreIfPossible && !Into<Person>("People").inferStoreIfPossible)
        #expect(Into<Person>(nil, inferStoreIfPossible: false).description == "Into<Person>(nil, inferStoreIfPossible: false)")
        #expect(Into<Person>(nil, inferStoreIfPossible: false) != Into<Person>())
    }
}
