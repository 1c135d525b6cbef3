import Foundation
import StrataTestSupport
import Testing
@testable import Strata

/// One transaction writing one entity into two storages: every write path (insert, update, delete,
/// to-one and link-table relationships, positions of ordered to-many ones) lands in the file of the
/// object's own storage; relating objects of two storages fails, naming both, with nothing saved.
@Suite("Writes across storages")
@MainActor
struct CrossStorageWriteTests {
    let folder = TestFolders.url("strata-cross")
    /// On PostgreSQL, the one database that holds every configuration, each in its own schema.
    let database: String?

    init() throws {
        database = TestBackend.current == .postgresql ? try Postgres.newDatabaseURL("split") : nil
        if let database { _ = try postgreSQLStore(url: database) }
    }

    private func url(_ configuration: String) -> URL { folder.appendingPathComponent(configuration + ".sqlite") }

    /// The store of a configuration: its own file, or its own schema of the shared database.
    private func store(_ configuration: String) -> any StorageInterface {
        if let database { return try! postgreSQLStore(url: database, configuration: configuration) }
        return SQLiteStore(fileURL: url(configuration), configuration: configuration)
    }

    private func makeStack() throws -> DataStack {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let stack = DataStack(splitHistory)
        for configuration in ["People", "Backup", "Pets"] {
            try stack.addStorageAndWait(store(configuration))
        }
        return stack
    }

    /// The names stored in one file, read by a stack that opens only that file.
    private func namesInFile(_ configuration: String) throws -> [String] {
        let stack = DataStack(splitHistory)
        try stack.addStorageAndWait(store(configuration))
        return try stack.fetchAll(From<Person>().orderBy(.ascending(\.name))).map(\.name)
    }

    @Test func everyWritePathLandsInTheObjectsOwnFile() async throws {
        let stack = try makeStack()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await stack.perform { t in
            var people: [String: Person] = [:]
            for (name, configuration) in [("Ann", "People"), ("Bob", "Backup"), ("Cy", "People"), ("Dee", "Backup"), ("Eve", "People"), ("Fay", "Backup")] {
                let person = t.create(Into<Person>(configuration))
                person.name = name
                people[name] = person
            }
            // Relationships inside each storage, in the same transaction.
            people["Ann"]?.spouse = people["Cy"]
            people["Bob"]?.spouse = people["Dee"]
            people["Ann"]?.friends = [people["Eve"]!, people["Cy"]!]
            people["Bob"]?.friends = [people["Fay"]!, people["Dee"]!]
        }
        #expect(try namesInFile("People") == ["Ann", "Cy", "Eve"])
        #expect(try namesInFile("Backup") == ["Bob", "Dee", "Fay"])

        try await stack.perform { t in
            for person in try t.fetchAll(From<Person>()) { person.age = Int16(person.name.count) }
            for person in try t.fetchAll(From<Person>().where(\.name ~= ["Eve", "Fay"])) { t.delete(person) }
            let ann = try #require(try t.fetchOne(From<Person>().where(\.name == "Ann")))
            let bob = try #require(try t.fetchOne(From<Person>().where(\.name == "Bob")))
            ann.friends = [ann.spouse!]
            bob.friends = [bob.spouse!]
        }
        #expect(try namesInFile("People") == ["Ann", "Cy"])
        #expect(try namesInFile("Backup") == ["Bob", "Dee"])
        let reread = DataStack(splitHistory)
        for configuration in ["People", "Backup", "Pets"] {
            try reread.addStorageAndWait(store(configuration))
        }
        let people = try reread.fetchAll(From<Person>().orderBy(.ascending(\.name)))
        #expect(people.map(\.age) == [3, 3, 2, 3])
        #expect(people.map { $0.spouse?.name } == ["Cy", "Dee", "Ann", "Bob"])
        #expect(people.map { $0.friends.map(\.name) } == [["Cy"], ["Dee"], ["Ann"], ["Bob"]])
        #expect(people.map { reread.configuration(of: $0) } == ["People", "Backup", "People", "Backup"])
    }

    @Test func relatingObjectsOfTwoStoragesFailsAndSavesNothing() async throws {
        let stack = try makeStack()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = StrataError.crossStorageRelationship(entity: "Person", relationship: "spouse", configurations: ["People", "Backup"])
        await #expect(throws: expected) {
            try await stack.perform { t in
                let ann = t.create(Into<Person>("People"))
                ann.name = "Ann"
                let bob = t.create(Into<Person>("Backup"))
                bob.name = "Bob"
                ann.spouse = bob
            }
        }
        #expect(expected.description == "'Person.spouse' cannot relate an object stored in configuration 'People' to one stored in "
                + "'Backup': a relationship cannot cross storages, so nothing was saved; create related objects in one storage")
        #expect(try namesInFile("People").isEmpty && namesInFile("Backup").isEmpty)
        await #expect(throws: StrataError.crossStorageRelationship(entity: "Person", relationship: "pets", configurations: ["People", "Pets"])) {
            try await stack.perform { t in
                let ann = t.create(Into<Person>("People"))
                ann.name = "Ann"
                let rex = t.create(Into<Dog>())
                ann.pets = [rex]
            }
        }
        #expect(try stack.fetchCount(From<Dog>()) == 0 && namesInFile("People").isEmpty)
        // The inverse side, synchronously, as before this was an error rather than a trap.
        #expect(throws: StrataError.crossStorageRelationship(entity: "Dog", relationship: "master", configurations: ["Pets", "People"])) {
            try stack.perform(synchronous: { t in
                let person = t.create(Into<Person>("People"))
                t.create(Into<Dog>()).master = person
            })
        }
    }

    @Test func objectsWhoseRelationshipsPointIntoAnotherConfigurationCanBeDeleted() async throws {
        let stack = try makeStack()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await stack.perform { t in t.create(Into<Person>("People")).name = "Ann" }
        try await stack.perform { t in
            // Person.pets (cascade) and Person.cats (deny) lead to entities the People file does not hold.
            for person in try t.fetchAll(From<Person>()) { t.delete(person) }
        }
        #expect(try namesInFile("People").isEmpty)
    }
}
