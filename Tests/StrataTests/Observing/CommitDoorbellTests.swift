import Foundation
import StrataTestSupport
import Testing
@testable import Strata

/// The doorbell a listening probe rings so the watcher polls at once: a ring is never lost, and a
/// wait nobody ends by ringing ends at its limit. (Three minutes: in the PostgreSQL pass, the
/// notification test's two stacks open while a hundred other tests open theirs on the same two
/// cores and server, which took each 13 s, the whole test 64 to 70 s; the commit then reached
/// the monitor in 1.2 s.)
@Suite("Commit doorbell", .timeLimit(.minutes(3)))
struct CommitDoorbellTests {
    @Test func aRingBeforeTheWaitEndsItAtOnceAndCountsOnce() async {
        let bell = CommitDoorbell()
        bell.ring()
        bell.ring()
        #expect(await bell.wait(upTo: .seconds(3_600)))
        // The two rings were one: the next wait runs to its limit.
        #expect(await bell.wait(upTo: .milliseconds(1)) == false)
    }

    @Test func aRingDuringTheWaitEndsIt() async {
        let bell = CommitDoorbell()
        async let rang = bell.wait(upTo: .seconds(3_600))
        // Rings until the waiter has taken one: whenever it started waiting, it wakes.
        let ringing = Task.detached {
            while !Task.isCancelled {
                bell.ring()
                try? await Task.sleep(for: .milliseconds(1))
            }
        }
        #expect(await rang)
        ringing.cancel()
    }

    /// On PostgreSQL, another server's commit reaches a monitor through the notification alone: the
    /// watcher of the stack that monitors would not poll for an hour.
    @MainActor
    @Test(.enabled(if: TestBackend.current == .postgresql, "PostgreSQL only: SQLite files send no notification"))
    func anotherServersCommitReachesAMonitorWithoutWaitingForThePoll() async throws {
        let (database, url) = try Postgres.newDatabase("doorbell")
        // The writer listens for nothing, so the listener below is the watcher's.
        let writer = DataStack(Zoo.schemaHistory, externalCommitCheckInterval: nil)
        try await writer.addStorage(postgreSQLStore(url: url))
        let watcher = DataStack(Zoo.schemaHistory, externalCommitCheckInterval: .seconds(3_600))
        try await watcher.addStorage(postgreSQLStore(url: url))
        let monitor = try watcher.monitorList(From<Person>().orderBy(.ascending(\.name)))
        var updates = monitor.updates.makeAsyncIterator()
        // The watcher's first poll, at once, starts its listener.
        _ = try await Postgres.server().listeningSession(in: database)
        try await addPeople(["Ann"], to: writer)
        let update = try #require(try await updates.next())
        #expect(update.changes.inserted.map(\.indexPath) == [ListIndexPath(item: 0, section: 0)])
        #expect(monitor.objects.map(\.name) == ["Ann"])
    }
}
