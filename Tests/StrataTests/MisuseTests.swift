import Foundation
import StrataTestSupport
import Testing
@testable import Strata

/// Programming errors stop the process with a message naming the entity and property; these
/// tests run each in a child process and read what it printed.
@Suite("Misuse traps with clear messages")
struct MisuseTests {
    private func stderr(of result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test(.sqliteOnly("a trap, checked in a child process (which would start a server of its own); it comes before any SQL"))
    func writingToAMainContextObject() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let stack = try makeStack()
            try await addPeople(["Ann"], to: stack)
            await MainActor.run {
                let ann = try? stack.fetchOne(From<Person>())
                ann?.name = "Changed"
            }
        }
        #expect(stderr(of: result).contains("Strata: 'Person.name' was set on an object of a read-only context; change it inside a transaction: transaction.edit(object)"))
    }

    @Test(.sqliteOnly("a trap, checked in a child process (which would start a server of its own); it comes before any SQL"))
    func writingToADeletedObject() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let stack = try makeStack()
            try await stack.perform { transaction in
                let person = transaction.create(Into<Person>())
                person.name = "Ann"
                transaction.delete(person)
                person.age = 3
            }
        }
        #expect(stderr(of: result).contains("Strata: 'Person.age' was set on a deleted object"))
    }

    @Test(.sqliteOnly("a trap, checked in a child process (which would start a server of its own); it comes before any SQL"))
    func writingToAnObjectOfAnEndedTransaction() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let stack = try makeStack()
            let transaction = stack.beginUnsafe()
            let person = transaction.create(Into<Person>())
            person.name = "Ann"
            transaction.rollback()
            person.name = "Changed"
        }
        #expect(stderr(of: result).contains("Strata: 'Person.name' was set on an object of a transaction that has ended; pass its ObjectID to a new transaction and edit it there"))
    }

    @Test(.sqliteOnly("a trap, checked in a child process (which would start a server of its own); it comes before any SQL"))
    func writingToAnObjectOutsideAnyTransaction() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Person().name = "Loose"
        }
        #expect(stderr(of: result).contains("Strata: 'Person.name' was set on an object that belongs to no transaction"))
    }

    @Test(.sqliteOnly("a trap, checked in a child process (which would start a server of its own); it comes before any SQL"))
    func creatingAnAbstractEntity() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let stack = try makeStack()
            try await stack.perform { transaction in _ = transaction.create(Into<Animal>()) }
        }
        #expect(stderr(of: result).contains("Strata: 'Animal' is abstract; create one of its subentities instead"))
    }
}
