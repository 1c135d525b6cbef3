import Foundation
import Testing
@testable import Strata

/// A hand-written snapshot of `Person`, as the generator writes one for every entity.
struct PersonCard: EntitySnapshot {
    let objectID: ObjectID<Person>
    let name: String
    let age: Int16

    init(_ object: Person) {
        objectID = object.objectID(as: Person.self)
        name = object.name
        age = object.age
    }
}

/// Reads snapshots away from the main actor.
actor SnapshotReader {
    func first<T>(_ count: Int, of publisher: ListPublisher<T>, whenStarted: @Sendable () async throws -> Void) async throws -> [ListSnapshot<T>] {
        var result: [ListSnapshot<T>] = []
        var iterator = publisher.makeAsyncIterator()
        while result.count < count, let snapshot = try await iterator.next() {
            result.append(snapshot)
            if result.count == 1 { try await whenStarted() }
        }
        return result
    }
}

/// `publishList` and `publishObject`: snapshots as `AsyncSequence`s usable from any actor.
@Suite("Publishers", .timeLimit(.minutes(5)))
struct PublisherTests {
    @Test func aListPublisherSendsTheListThenEachNewOne() async throws {
        let stack = try makeStack()
        try await addPeople(["Bob"], to: stack)
        let snapshots = try await SnapshotReader().first(2, of: stack.publishList(From<Person>().orderBy(.ascending(\.name)))) {
            try await addPeople(["Ann"], to: stack)
        }
        #expect(snapshots.map(\.count) == [1, 2])
        let names = await MainActor.run { snapshots[1].itemIDs.compactMap { stack.fetchExisting($0)?.name } }
        #expect(names == ["Ann", "Bob"])
        #expect(snapshots[0] != snapshots[1])
        #expect(Set(snapshots).count == 2)
    }

    @Test func aSectionedListPublisherSendsSections() async throws {
        let stack = try makeStack()
        try await addPeople(["Ann", "Bob"], to: stack)
        var iterator = stack.publishSectionedList(From<Person>().sectionBy(\.age).orderBy(.ascending(\.name))).makeAsyncIterator()
        let snapshot = try #require(try await iterator.next())
        #expect(snapshot.sections.map(\.identifier) == ["10", "20"])
        #expect(snapshot[ListIndexPath(item: 0, section: 1)].rowID == 2)
    }

    @Test func aListPublisherOfABadFetchThrows() async throws {
        let stack = try makeStack()
        var iterator = stack.publishList(From<Person>().orderBy(.ascending(\.pets))).makeAsyncIterator()
        await #expect(throws: StrataError.invalidQuery("'Person' has no stored property 'pets'")) { _ = try await iterator.next() }
    }

    @Test func anObjectPublisherSendsValuesThenNilWhenDeleted() async throws {
        let stack = try makeStack()
        let ids = try await addPeople(["Ann"], to: stack)
        var iterator = stack.publishObject(ids[0], as: PersonCard.self).makeAsyncIterator()
        #expect(try await iterator.next()??.name == "Ann")
        try await stack.perform { transaction in transaction.edit(ids[0])?.name = "Ann Lee" }
        #expect(try await iterator.next()??.name == "Ann Lee")
        try await stack.perform { transaction in transaction.delete(transaction.edit(ids[0])) }
        let last = try await iterator.next()
        #expect(last != nil && last! == nil)
        #expect(try await iterator.next() == nil)
    }

    @Test func anObjectPublisherOfAMissingObjectThrows() async throws {
        let stack = try makeStack()
        let ids = try await addPeople(["Ann"], to: stack)
        try await stack.perform { transaction in transaction.delete(transaction.edit(ids[0])) }
        var iterator = stack.publishObject(ids[0], as: PersonCard.self).makeAsyncIterator()
        await #expect(throws: StrataError.objectNotFound("Person #1")) { _ = try await iterator.next() }
    }
}
