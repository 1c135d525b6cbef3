import Foundation
import Testing
@testable import Strata

/// `ObjectMonitor`: one live object, and what happens to it.
@MainActor
@Suite("Object monitors", .timeLimit(.minutes(5)))
struct ObjectMonitorTests {
    @Test func reportsTheChangedPropertiesThenTheDeletion() async throws {
        let stack = try makeStack()
        let ids = try await addPeople(["Ann", "Bob"], to: stack)
        let monitor = try stack.monitorObject(ids[0])
        #expect(monitor.object?.name == "Ann")
        var updates = monitor.updates.makeAsyncIterator()

        try await stack.perform { transaction in
            transaction.edit(ids[0])?.name = "Ann Lee"
            transaction.edit(ids[0])?.visits = 3
            transaction.edit(ids[1])?.name = "Bob Lee"
        }
        #expect(try await updates.next() == .updated(changedProperties: ["name", "visits"]))
        #expect(monitor.object?.name == "Ann Lee")

        // A commit that leaves the object alone sends nothing.
        try await stack.perform { transaction in transaction.edit(ids[1])?.age = 99 }
        try await stack.perform { transaction in transaction.edit(ids[0])?.spouse = transaction.edit(ids[1]) }
        #expect(try await updates.next() == .updated(changedProperties: ["spouse"]))

        try await stack.perform { transaction in transaction.delete(transaction.edit(ids[0])) }
        #expect(try await updates.next() == .deleted)
        #expect(try await updates.next() == nil)
        #expect(monitor.object == nil)
    }

    @Test func relationshipChangesOnEitherSideAreReported() async throws {
        let stack = try makeStack()
        let ids = try await addPeople(["Ann", "Bob"], to: stack)
        let dog = try await stack.perform { transaction in
            let dog = transaction.create(Into<Dog>())
            dog.species = "dog"
            return dog.objectID(as: Dog.self)
        }
        let ann = try stack.monitorObject(ids[0])
        let rex = try stack.monitorObject(dog)
        var annUpdates = ann.updates.makeAsyncIterator()
        var rexUpdates = rex.updates.makeAsyncIterator()
        let changes = stack.changes
        try await stack.perform { transaction in transaction.edit(dog)?.master = transaction.edit(ids[0]) }
        #expect(try await annUpdates.next() == .updated(changedProperties: ["pets"]))
        #expect(try await rexUpdates.next() == .updated(changedProperties: ["master"]))
        try await stack.perform { transaction in transaction.edit(ids[0])?.friends = [transaction.edit(ids[1])].compactMap { $0 } }
        #expect(try await annUpdates.next() == .updated(changedProperties: ["friends"]))
        var iterator = changes.makeAsyncIterator()
        _ = await iterator.next()
        let friends = try #require(await iterator.next())
        #expect(friends.changes(of: Person.self)?.updated == [AnyObjectID(ids[0]): ["friends"], AnyObjectID(ids[1]): ["friends"]])
    }

    @Test func monitoringAnObjectThatIsGoneIsAnError() async throws {
        let stack = try makeStack()
        let ids = try await addPeople(["Ann"], to: stack)
        try await stack.perform { transaction in transaction.delete(transaction.edit(ids[0])) }
        #expect(throws: StrataError.objectNotFound("Person #1")) { _ = try stack.monitorObject(ids[0]) }
        #expect(StrataError.objectNotFound("Person #1").description
            == "Person #1 does not exist: it was deleted, or never saved; monitor an object the store holds")
    }

    @Test func aLaggingConsumerGetsOneMergedUpdate() async throws {
        let stack = try makeStack()
        let ids = try await addPeople(["Ann"], to: stack)
        let monitor = try stack.monitorObject(ids[0])
        let updates = monitor.updates
        try await stack.perform { transaction in transaction.edit(ids[0])?.name = "A" }
        try await stack.perform { transaction in transaction.edit(ids[0])?.age = 1 }
        try await stack.perform { transaction in transaction.edit(ids[0])?.visits = 2 }
        #expect(updates.buffer.pendingCount == 1)
        var iterator = updates.makeAsyncIterator()
        #expect(try await iterator.next() == .updated(changedProperties: ["name", "age", "visits"]))
    }

    @Test func theMonitorGoesWithItsLastUser() async throws {
        let stack = try makeStack()
        let ids = try await addPeople(["Ann"], to: stack)
        weak var released: ObjectMonitor<Person>?
        weak var object: Person?
        do {
            let monitor = try stack.monitorObject(ids[0])
            released = monitor
            object = monitor.object
        }
        #expect(released == nil)
        // The main context keeps objects only while someone holds them.
        try await addPeople(Array(repeating: "x", count: 5_000), to: stack)
        try stack.fetchEach(From<Person>().where(\.name == "x")) { _ in }
        #expect(object == nil)
    }
}
