import Foundation
import Testing
@testable import Strata

/// `DataStack.changes`: one value per commit, in commit order, naming what changed.
@Suite("Commit changes", .timeLimit(.minutes(5)))
struct CommitChangesTests {
    @MainActor
    @Test func eachCommitReportsItsInsertionsUpdatesAndDeletions() async throws {
        let stack = try makeStack()
        var iterator = stack.changes.makeAsyncIterator()
        let ids = try await addPeople(["Ann", "Bob"], to: stack)
        let inserted = try #require(await iterator.next())
        #expect(inserted.changes(of: Person.self)?.inserted == ids.map(AnyObjectID.init))
        #expect(inserted.changes(of: Person.self)?.updated.isEmpty == true)

        try await stack.perform { transaction in
            let ann = try #require(transaction.edit(ids[0]))
            ann.name = "Ann Lee"
            ann.age = 31
            ann.name = "Ann B. Lee"
            transaction.delete(transaction.edit(ids[1]))
        }
        let changed = try #require(await iterator.next())
        let people = try #require(changed.changes(of: Person.self))
        #expect(people.inserted.isEmpty)
        #expect(people.updated == [AnyObjectID(ids[0]): ["name", "age"]])
        #expect(people.deleted == [AnyObjectID(ids[1])])
        #expect(changed.touches(["Person"]) && !changed.touches(["Dog"]))
    }

    @Test func commitsArriveInOrderFromEveryTransactionKind() async throws {
        let stack = try makeStack()
        let changes = stack.changes
        try await stack.perform { transaction in transaction.create(Into<Person>()).name = "1" }
        try stack.perform(synchronous: { transaction in transaction.create(Into<Person>()).name = "2" })
        let unsafe = stack.beginUnsafe()
        unsafe.create(Into<Person>()).name = "3"
        try unsafe.commit()
        // A transaction that changes nothing reports nothing.
        try await stack.perform { transaction in _ = try transaction.fetchCount(From<Person>()) }
        try await stack.perform { transaction in transaction.create(Into<Person>()).name = "4" }
        var rowIDs: [Int64] = []
        for await change in changes {
            rowIDs += change.changes(of: Person.self)?.inserted.map(\.rowID) ?? []
            if rowIDs.count == 4 { break }
        }
        #expect(rowIDs == rowIDs.sorted())
        #expect(rowIDs.count == 4)
    }

    @Test func leavingTheLoopStopsTheSequence() async throws {
        let stack = try makeStack()
        #expect(stack.core.changes.subscriberCount == 0)
        let task = Task {
            for await _ in stack.changes { break }
        }
        while stack.core.changes.subscriberCount == 0 { await Task.yield() }
        try await stack.perform { transaction in transaction.create(Into<Person>()).name = "x" }
        await task.value
        #expect(stack.core.changes.subscriberCount == 0)
    }

    @Test func aCancelledTaskStopsTheSequence() async throws {
        let stack = try makeStack()
        let task = Task {
            for await _ in stack.changes {}
        }
        while stack.core.changes.subscriberCount == 0 { await Task.yield() }
        task.cancel()
        await task.value
        #expect(stack.core.changes.subscriberCount == 0)
    }
}
