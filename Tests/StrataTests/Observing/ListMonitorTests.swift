import Foundation
import Testing
@testable import Strata

/// `ListMonitor`: a fetch kept up to date, and change sets that turn each list into the next.
@MainActor
@Suite("List monitors", .timeLimit(.minutes(5)))
struct ListMonitorTests {
    @Test func startsWithTheFetchInOrder() async throws {
        let stack = try makeStack()
        try await addPeople(["Cy", "Ann", "Bob"], to: stack)
        let monitor = try stack.monitorList(From<Person>().orderBy(.ascending(\.name)))
        #expect(monitor.objects.map(\.name) == ["Ann", "Bob", "Cy"])
        #expect(monitor.numberOfSections == 1 && monitor.numberOfObjects == 3)
        #expect(monitor.object(at: ListIndexPath(item: 1, section: 0))?.name == "Bob")
        #expect(monitor.object(at: 3) == nil)
        let bob = try #require(monitor.object(at: 1))
        #expect(monitor.indexPath(of: bob) == ListIndexPath(item: 1, section: 0))
    }

    @Test func reportsInsertionsUpdatesMovesAndDeletions() async throws {
        let stack = try makeStack()
        let ids = try await addPeople(["Ann", "Bob", "Cy"], to: stack)
        let monitor = try stack.monitorList(From<Person>().where(\.age < 100).orderBy(.ascending(\.name)))
        var updates = monitor.updates.makeAsyncIterator()

        try await addPeople(["Bea"], to: stack)
        var update = try #require(try await updates.next())
        #expect(update.changes.inserted.map(\.indexPath) == [ListIndexPath(item: 1, section: 0)])
        #expect(update.snapshot.count == 4)

        // A change to a column the fetch does not read: an update in place.
        try await stack.perform { transaction in transaction.edit(ids[2])?.visits = 7 }
        update = try #require(try await updates.next())
        #expect(update.changes.updated.map(\.objectID) == [ids[2]])
        #expect(update.changes.updated.first?.from == ListIndexPath(item: 3, section: 0))
        #expect(update.changes.moved.isEmpty && update.changes.inserted.isEmpty)

        // Renaming moves; a changed condition removes.
        try await stack.perform { transaction in
            transaction.edit(ids[0])?.name = "Zed"
            transaction.edit(ids[1])?.age = 500
        }
        update = try #require(try await updates.next())
        #expect(update.changes.moved.map(\.objectID) == [ids[0]])
        #expect(update.changes.moved.first?.from == ListIndexPath(item: 0, section: 0))
        #expect(update.changes.moved.first?.to == ListIndexPath(item: 2, section: 0))
        #expect(update.changes.moved.first?.isUpdated == true)
        #expect(update.changes.deleted.map(\.objectID) == [ids[1]])
        #expect(monitor.objects.map(\.name) == ["Bea", "Cy", "Zed"])

        try await stack.perform { transaction in transaction.delete(transaction.edit(ids[2])) }
        update = try #require(try await updates.next())
        #expect(update.changes.deleted.map(\.indexPath) == [ListIndexPath(item: 1, section: 0)])
        #expect(monitor.objects.map(\.name) == ["Bea", "Zed"])
    }

    @Test func aCommitElsewhereSendsNothing() async throws {
        let stack = try makeStack()
        try await addPeople(["Ann"], to: stack)
        let monitor = try stack.monitorList(From<Person>().orderBy(.ascending(\.name)))
        let updates = monitor.updates
        try await stack.perform { transaction in
            let dog = transaction.create(Into<Dog>())
            dog.species = "dog"
        }
        try await addPeople(["Bob"], to: stack)
        var iterator = updates.makeAsyncIterator()
        let update = try #require(try await iterator.next())
        // The first update is the second commit's: the dog's commit sent nothing.
        #expect(update.changes.inserted.count == 1 && update.snapshot.count == 2)
        #expect(updates.buffer.pendingCount == 0)
    }

    @Test func sectionsAppearAndGo() async throws {
        let stack = try makeStack()
        let ids = try await addPeople(["Ann", "Bob"], to: stack)  // ages 10, 20
        let monitor = try stack.monitorSectionedList(From<Person>().sectionBy(\.age, sectionName: { "Age \($0 ?? "?")" }).orderBy(.ascending(\.name)))
        #expect(monitor.sections.map(\.identifier) == ["10", "20"])
        #expect(monitor.sections.map(\.name) == ["Age 10", "Age 20"])
        var updates = monitor.updates.makeAsyncIterator()
        try await stack.perform { transaction in transaction.edit(ids[1])?.age = 5 }
        let update = try #require(try await updates.next())
        #expect(update.changes.insertedSections.map(\.index) == [0])
        #expect(update.changes.deletedSections.map(\.index) == [1])
        #expect(update.changes.moved.first?.from == ListIndexPath(item: 0, section: 1))
        #expect(update.changes.moved.first?.to == ListIndexPath(item: 0, section: 0))
        #expect(monitor.sections.map(\.identifier) == ["5", "10"])
        #expect(monitor.objects(inSection: 1).map(\.name) == ["Ann"])
    }

    /// CoreStore's section index transformer: each section's short title for a side index, read
    /// back from the monitor and its snapshots, kept up to date as sections come and go.
    @Test func sectionsHaveIndexTitles() async throws {
        let stack = try makeStack()
        let ids = try await addPeople(["Bob", "Ann", "Cy", "Amy", "Bea", "dan"], to: stack)
        let monitor = try stack.monitorSectionedList(From<Person>().sectionBy(
            \.name, sectionName: { "Name \($0 ?? "?")" },
            sectionIndexTitle: { name in name?.first.flatMap { $0.isUppercase ? String($0) : nil } }).orderBy(.ascending(\.name)))
        #expect(monitor.sections.map(\.identifier) == ["Amy", "Ann", "Bea", "Bob", "Cy", "dan"])
        #expect(monitor.sections.map(\.name) == ["Name Amy", "Name Ann", "Name Bea", "Name Bob", "Name Cy", "Name dan"])
        #expect(monitor.sections.map(\.indexTitle) == ["A", "A", "B", "B", "C", nil])
        #expect(monitor.sectionIndexTitles == ["A", "B", "C"])
        #expect(monitor.section(forSectionIndexTitle: "B") == 2)
        #expect(monitor.section(forSectionIndexTitle: "D") == nil)

        var updates = monitor.updates.makeAsyncIterator()
        try await stack.perform { transaction in
            transaction.delete(transaction.edit(ids[1]), transaction.edit(ids[3]))
            transaction.edit(ids[5])?.name = "Dan"
        }
        let update = try #require(try await updates.next())
        #expect(update.snapshot.sectionIndexTitles == ["B", "C", "D"])
        #expect(update.snapshot.section(forSectionIndexTitle: "D") == 3)
        #expect(monitor.sectionIndexTitles == ["B", "C", "D"])

        // Without a transformer, no section has an index title (as CoreStore's default).
        let plain = try stack.monitorSectionedList(From<Person>().sectionBy(\.age) { "Age \($0 ?? "?")" }.orderBy(.ascending(\.age)))
        #expect(plain.sections.map(\.name) == ["Age 10", "Age 30", "Age 50", "Age 60"])
        #expect(plain.sections.allSatisfy { $0.indexTitle == nil } && plain.sectionIndexTitles.isEmpty)
        #expect(try stack.monitorList(From<Person>().orderBy(.ascending(\.name))).sectionIndexTitles.isEmpty)
    }

    @Test func aDescendingFirstSortKeyOnTheSectionKeyOrdersTheSections() async throws {
        let stack = try makeStack()
        try await addPeople(["Ann", "Bob", "Cy"], to: stack)
        let monitor = try stack.monitorSectionedList(From<Person>().sectionBy(\.age).orderBy(.descending(\.age), .ascending(\.name)))
        #expect(monitor.sections.map(\.identifier) == ["30", "20", "10"])
    }

    @Test func refetchSendsTheChangeToTheNewList() async throws {
        let stack = try makeStack()
        try await addPeople(["Ann", "Bob", "Cy"], to: stack)
        let monitor = try stack.monitorList(From<Person>().orderBy(.ascending(\.name)))
        let before = PlainList(monitor.snapshot)
        var updates = monitor.updates.makeAsyncIterator()
        try monitor.refetch(From<Person>().where(\.name != "Bob").orderBy(.descending(\.name)))
        let update = try #require(try await updates.next())
        #expect(before.applying(update.changes) == PlainList(update.snapshot))
        #expect(monitor.objects.map(\.name) == ["Cy", "Ann"])
    }

    @Test func aFetchThatCannotBeCompiledIsAnError() async throws {
        let stack = try makeStack()
        #expect(throws: StrataError.invalidQuery("'Person' has no stored property 'pets'")) {
            _ = try stack.monitorList(From<Person>().orderBy(.ascending(\.pets)))
        }
    }

    @Test func leavingTheLoopReleasesTheMonitor() async throws {
        let stack = try makeStack()
        weak var released: ListMonitor<Person>?
        do {
            let monitor = try stack.monitorList(From<Person>())
            released = monitor
            let updates = monitor.updates
            try await addPeople(["Ann"], to: stack)
            for try await update in updates {
                #expect(update.snapshot.count == 1)
                break
            }
        }
        #expect(released == nil)
        // A commit after the monitor is gone finds nothing to notify.
        try await addPeople(["Bob"], to: stack)
        #expect(stack.main.observers.observers.isEmpty)
    }

    @Test func aCancelledTaskEndsTheSequence() async throws {
        let stack = try makeStack()
        let monitor = try stack.monitorList(From<Person>())
        let updates = monitor.updates
        let task = Task { @MainActor in
            var count = 0
            for try await _ in updates { count += 1 }
            return count
        }
        task.cancel()
        #expect(try await task.value == 0)
    }

    @Test func aSlowConsumerGetsMergedUpdatesThatStillApply() async throws {
        let stack = try makeStack()
        let monitor = try stack.monitorList(From<Person>().orderBy(.ascending(\.age), .ascending(\.name)))
        let start = PlainList(monitor.snapshot)
        let updates = monitor.updates
        for index in 0..<40 {
            try await stack.perform { transaction in
                let person = transaction.create(Into<Person>())
                person.name = "P\(index)"
                person.age = Int16((index * 7) % 13)
            }
            #expect(updates.buffer.pendingCount <= ListMonitor<Person>.pendingLimit)
        }
        var list = start
        var iterator = updates.makeAsyncIterator()
        while updates.buffer.pendingCount > 0 {
            let update = try #require(try await iterator.next())
            list = try #require(list.applying(update.changes))
            #expect(list == PlainList(update.snapshot))
        }
        #expect(list == PlainList(monitor.snapshot))
        #expect(monitor.numberOfObjects == 40)
    }
}
