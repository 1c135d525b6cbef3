import Foundation
import Testing
@testable import Strata

@Suite("Runtime basics")
struct BasicTests {
    @MainActor
    @Test func createCommitAndFetch() async throws {
        let stack = DataStack(Zoo.schemaHistory)
        try stack.addStorageAndWait(InMemoryStore())
        let id = try await stack.perform { transaction in
            let person = transaction.create(Into<Person>())
            person.name = "John"
            person.age = 30
            return person.objectID(as: Person.self)
        }
        let people = try stack.fetchAll(From<Person>())
        #expect(people.map(\.name) == ["John"])
        #expect(people.first?.objectID(as: Person.self) == id)
    }
}
