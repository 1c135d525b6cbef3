import Foundation
import Testing
@testable import Strata

/// `ObjectMonitor`: one live object, and what happens to it.
@MainActor
@Suite("Object monitors", .timeLimit(.minutes(2)))
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
