import Foundation
import StrataTestSupport
import Testing
@testable import Strata

/// Commits of another stack on the same file reach the main context and the monitors without
/// this stack committing.
@MainActor
@Suite("Other writers", .timeLimit(.minutes(5)))
struct OtherWriterTests {
    @Test func anotherStacksCommitReachesTheMonitorsAndTheMainContext() async throws {
        let store = try sharedStore(file: temporaryStoreURL())
        let stack = DataStack(Zoo.schemaHistory, externalCommitCheckInterval: .milliseconds(10))
        try stack.addStorageAndWait(store())
        let other = DataStack(Zoo.schemaHistory)
        try other.addStorageAndWait(store())
        let ids = try await addPeople(["Ann"], to: stack)
        let monitor = try stack.monitorList(From<Person>().orderBy(.ascending(\.name)))
        let objectMonitor = try stack.monitorObject(ids[0])
        let ann = try #require(stack.fetchExisting(ids[0]))
        var updates = monitor.updates.makeAsyncIterator()
        var objectUpdates = objectMonitor.updates.makeAsyncIterator()

        try await addPeople(["Bob"], to: other)
        let update = try #require(try await updates.next())
        #expect(update.changes.inserted.map(\.indexPath) == [ListIndexPath(item: 1, section: 0)])
        #expect(monitor.objects.map(\.name) == ["Ann", "Bob"])

        try await other.perform { transaction in transaction.edit(ids[0])?.name = "Ann Lee" }
        #expect(try await objectUpdates.next() == .updated(changedProperties: ["name"]))
        #expect(ann.name == "Ann Lee")
        #expect(try stack.fetchCount(From<Person>()) == 2)
    }

    @Test func aStackWithoutWatchingSeesOthersWhenItCommitsOrItsSnapshotEnds() async throws {
        let store = try sharedStore(file: temporaryStoreURL())
        let stack = DataStack(Zoo.schemaHistory, externalCommitCheckInterval: nil)
        try stack.addStorageAndWait(store())
        let other = DataStack(Zoo.schemaHistory)
        try other.addStorageAndWait(store())
        #expect(try stack.fetchCount(From<Person>()) == 0)
        try await addPeople(["Bob"], to: other)
        // A SQLite snapshot lasts until the stack commits; a server's lasts one stretch of
        // main-actor work (a read transaction left open would hold back the server's VACUUM).
        #expect(try stack.fetchCount(From<Person>()) == (TestBackend.current == .sqlite ? 0 : 1))
        try await stack.perform { transaction in transaction.create(Into<Dog>()).species = "dog" }
        #expect(try stack.fetchCount(From<Person>()) == 1)
    }
}

/// A store file deleted while monitored stops its monitors with `storeMoved`.
@MainActor
@Suite("Stores removed while monitored", .timeLimit(.minutes(5)))
struct RemovedStoreTests {
    @Test(.sqliteOnly("a store file deleted while open"))
    func everyMonitorOfTheFileThrowsStoreMoved() async throws {
        let url = temporaryStoreURL()
        let stack = DataStack(Zoo.schemaHistory, externalCommitCheckInterval: .milliseconds(10))
        try stack.addStorageAndWait(SQLiteStore(fileURL: url))
        let ids = try await addPeople(["Ann"], to: stack)
        var list = try stack.monitorList(From<Person>()).updates.makeAsyncIterator()
        var object = try stack.monitorObject(ids[0]).updates.makeAsyncIterator()
        var published = stack.publishObject(ids[0], as: PersonCard.self).makeAsyncIterator()
        #expect(try await published.next()??.name == "Ann")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        let moved = StrataError.storeMoved(file: url.path)
        do {
            _ = try await list.next()
            Issue.record("the list monitor went on")
        } catch { #expect(error == moved) }
        do {
            _ = try await object.next()
            Issue.record("the object monitor went on")
        } catch { #expect(error == moved) }
        do {
            _ = try await published.next()
            Issue.record("the publisher went on")
        } catch { #expect(error == moved) }
        // Writing to the file is refused too.
        await #expect(throws: moved) {
            try await stack.perform { transaction in transaction.create(Into<Person>()).name = "Bob" }
        }
    }
}
