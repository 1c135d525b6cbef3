import Foundation
import Strata
import StrataTesting

// The README's Swift examples, compiled with the sample (they are not run: `main.swift` walks the
// same ground). `ReadmeCodeTests` checks that each README block is one of these, word for word.
@MainActor
enum ReadmeSnippets {
    static func runtime() async throws {
        // snippet: runtime
        let stack = DataStack(PetStore.schemaHistory)
        try await stack.addStorage(SQLiteStore(fileName: "PetStore.sqlite"))   // creates, or migrates; or InMemoryStore()

        try await stack.perform { transaction in
            let person = transaction.create(Into<Person>())
            person.name = "John Smith"
            let dog = transaction.create(Into<Dog>())
            dog.master = person                       // person.pets now contains dog
        }

        // On the main actor: live, read-only objects, updated by every commit.
        let active = try stack.fetchAll(From<Person>().where(\.isActive == true && \.name != "").orderBy(.ascending(\.name)))
        let heaviest = try stack.queryValue(From<Dog>().select(Double.self, .maximum(\.weight)))
        let byLegs = try stack.queryAttributes(From<Dog>().select(.attribute(\.legs), .count(\.legs, as: "n")).groupBy(\.legs))

        // Off the main actor: a read context, returning Sendable values.
        let names = try await stack.read { reader in try reader.fetchAll(From<Person>()).map(\.name) }
        print(active.count, heaviest ?? 0, byLegs, names)
        // end snippet
    }

    static func migrations() async throws {
        // snippet: migrations
        let stack = DataStack(PetStore.schemaHistory)
        let storage = SQLiteStore(fileName: "PetStore.sqlite")
        print(try stack.requiredMigrations(for: storage))      // [V1 → V2 (heavyweight), V2 → V3 (heavyweight)]
        try await stack.addStorage(storage) { progress in       // migrates, then opens
            print(progress.sourceVersion, "→", progress.destinationVersion, progress.fractionCompleted)
        }
        // end snippet
    }

    static func seeding(url: URL) async throws {
        // snippet: seeding
        try StoreSeeding.seedStore(at: url, history: PetStore.schemaHistory, version: "V1", objects: [
            SeedObject("Person", id: 1, ["personID": Int64(7), "name": "Ann"], relationships: ["pets": [10]]),
            SeedObject("Dog", id: 10, ["species": "dog", "nickname": "Rex"], relationships: ["master": [1]]),
        ])
        let stack = DataStack(PetStore.schemaHistory)
        try await stack.addStorage(SQLiteStore(fileURL: url))    // migrates V1 → V2 → V3
        let rex = try stack.fetchOne(From<Dog>())                  // read with the current classes
        // end snippet
        print(rex?.nickname ?? "")
    }

    static func changes(stack: DataStack) async {
        // snippet: changes
        for await change in stack.changes {
            if let people = change.changes(of: Person.self) {
                print(people.inserted.count, people.updated.keys.count, people.deleted.count)
            }
        }
        // end snippet
    }

    static func importing(stack: DataStack, data: Data) async throws {
        // snippet: importing
        let people = try JSONDecoder().decode([Person.ImportPayload].self, from: data)   // any actor
        try await stack.perform { transaction in
            _ = try transaction.importUniqueObjects(Into<Person>(), sourceArray: people)
        }
        // end snippet
    }
}
