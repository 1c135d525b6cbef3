// Left out of builds without the PostgreSQL trait (see Package.swift).
#if PostgreSQL
import Foundation
import Strata
@testable import StrataPostgres
import StrataTestSupport
import Synchronization
import Testing

/// How a stack's commits are announced: gathered into few notifications, each within
/// PostgreSQL's payload limit, none waited for.
@Suite("Commit announcer")
struct CommitAnnouncerTests {
    @Test func gatheredCommitsFitPostgreSQLsPayloadLimitInOrder() throws {
        // Lists of about 3,500 bytes: two lines to a notification.
        let commits = (1...9).map { id in
            (id: Int64(id), suffix: CommitNotice.suffix(tables: (0..<400).map { "t\(id)_\($0)" }))
        }
        let payloads = CommitAnnouncer.payloads(commits)
        #expect(payloads.count == 5)
        var heard: [Int64] = []
        for (first, rest) in payloads {
            // The longest id a notifier can have.
            let payload = String(first) + "+" + String(Int64.max) + rest
            #expect(payload.utf8.count < 8_000)
            heard += try #require(CommitNotice(payload: payload)).commitIDs
        }
        #expect(heard == Array(1...9))
        // Small notices all go in one.
        #expect(CommitAnnouncer.payloads([(1, " [\"a\"]"), (2, ""), (3, " []")]).map(\.rest) == [" [\"a\"]\n2\n3 []"])
        #expect(CommitAnnouncer.payloads([]).isEmpty)
    }

    @Test(Postgres.available) func commitsMadeWithinTheWindowGoInOneNotification() throws {
        let url = try Postgres.newDatabaseURL("announcer")
        let (listener, heard) = try listening(url)
        // A window longer than the test: only the first commit goes by itself.
        let announcer = CommitAnnouncer(idleTimeout: nil, window: .seconds(3_600)) { () throws(StrataError) in
            try PostgreSQLConnection.connect(PostgreSQLAddress(url: url))
        }
        announcer.announce(1, suffix: CommitNotice.suffix(tables: ["Person"]))
        try waitFor(1, notices: heard, reading: listener)
        for id in 2...10 { announcer.announce(Int64(id), suffix: "") }
        announcer.flushNow()
        try waitFor(2, notices: heard, reading: listener)
        let notices = heard.withLock { $0 }
        #expect(notices.map { $0?.commitIDs } == [[1], Array(2...10)])
        #expect(notices.first??.tables == ["Person"])
        // Each notification is a transaction of its own that the listener hears of too.
        #expect(notices.allSatisfy { $0?.notifier != nil })
        // The stack's own commits are known as such once.
        #expect(announcer.isOwn(5) && !announcer.isOwn(5) && !announcer.isOwn(11))
    }

    @Test(Postgres.available) func anAnnouncementThatCannotBeSentIsDroppedAndTheNextGoes() throws {
        let url = try Postgres.newDatabaseURL("announcer-down")
        let (listener, heard) = try listening(url)
        let attempts = Mutex(0)
        let announcer = CommitAnnouncer(idleTimeout: nil, window: .seconds(3_600)) { () throws(StrataError) in
            if attempts.withLock({ attempts in defer { attempts += 1 }; return attempts == 0 }) {
                throw .serverUnavailable(server: "db", database: "pets", reason: "down")
            }
            return try PostgreSQLConnection.connect(PostgreSQLAddress(url: url))
        }
        announcer.announce(1, suffix: "")
        announcer.flushNow()
        announcer.announce(2, suffix: "")
        announcer.flushNow()
        try waitFor(1, notices: heard, reading: listener)
        // The first commit is left to the listeners' accounting.
        #expect(heard.withLock { $0 }.map { $0?.commitIDs } == [[2]])
        #expect(attempts.withLock { $0 } == 2)
    }

    /// The notices a listener heard.
    private final class Heard: Sendable {
        let notices = Mutex<[CommitNotice?]>([])

        func withLock<Result>(_ body: ([CommitNotice?]) -> Result) -> Result { notices.withLock { body($0) } }
    }

    private func listening(_ url: String) throws -> (PostgreSQLConnection, Heard) {
        let listener = try PostgreSQLConnection.connect(PostgreSQLAddress(url: url))
        let heard = Heard()
        try listener.listenForCommits({ notice in heard.notices.withLock { $0.append(notice) } }, closed: {})
        return (listener, heard)
    }

    /// Waits until `count` notices were heard (a statement on the listener's connection makes it
    /// read what arrived), for 10 seconds at most.
    private func waitFor(_ count: Int, notices heard: Heard, reading listener: PostgreSQLConnection) throws {
        for _ in 0..<2_000 where heard.withLock({ $0.count < count }) {
            try listener.execute("SELECT 1")
            usleep(5_000)
        }
        #expect(heard.withLock { $0.count } == count)
    }
}
#endif
