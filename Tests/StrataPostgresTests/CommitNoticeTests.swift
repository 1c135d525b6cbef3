// Left out of builds without the PostgreSQL trait (see Package.swift).
#if PostgreSQL
import Foundation
import Strata
@testable import StrataPostgres
import StrataTestSupport
import Synchronization
import Testing

/// What a commit's notification tells the stacks that listen: its transaction's id and the
/// tables it changed.
@Suite("Commit notices")
struct CommitNoticeTests {
    @Test func aNoticeCarriesTheIdAndTheTablesAnyNameMayHold() {
        let tables = ["Person", "Dog Owner", "quote\"d", "comma,name", "ü"]
        let payload = "741" + CommitNotice.suffix(tables: tables)
        #expect(CommitNotice(payload: payload) == CommitNotice(id: 741, tables: tables))
        // Unknown tables: the id alone.
        #expect(CommitNotice.suffix(tables: nil).isEmpty)
        #expect(CommitNotice(payload: "741") == CommitNotice(id: 741, tables: nil))
    }

    @Test func aNoticeSentAfterItsCommitAlsoNamesTheTransactionThatSentIt() {
        let notice = CommitNotice(payload: "741+742" + CommitNotice.suffix(tables: ["Person"]))
        #expect(notice == CommitNotice(id: 741, notifier: 742, tables: ["Person"]))
        // The sender changed nothing; an earlier Strata's notice (sent inside its commit) names none.
        #expect(notice?.heardCommits == [HeardCommit(id: 741, tables: ["Person"]), HeardCommit(id: 742, tables: [])])
        #expect(CommitNotice(payload: "741 []")?.heardCommits == [HeardCommit(id: 741, tables: [])])
    }

    @Test func aListTooLongForANotificationIsLeftOut() {
        let tables = (0..<1_000).map { "table_\($0)" }
        #expect(CommitNotice.suffix(tables: tables).isEmpty)
    }

    @Test func aNoticeMayTellOfMoreCommitsOneALine() {
        let payload = "741+750" + CommitNotice.suffix(tables: ["Person"]) + "\n745" + CommitNotice.suffix(tables: ["Line\nbreak"]) + "\n749"
        let notice = CommitNotice(payload: payload)
        #expect(notice?.commitIDs == [741, 745, 749])
        #expect(notice?.heardCommits == [HeardCommit(id: 741, tables: ["Person"]), HeardCommit(id: 745, tables: ["Line\nbreak"]),
                                         HeardCommit(id: 749, tables: nil), HeardCommit(id: 750, tables: [])])
    }

    @Test(arguments: ["", "x", "12x", "12 [", "12 {\"a\":1}", " 12", "12+", "12+x", "+12", "12+13+14",
                      "12+13\n", "12+13\n14+15", "12+13\nx", "12+13\n14 [", "12\n\n13"])
    func aPayloadThatIsNoNoticeIsRefused(payload: String) {
        #expect(CommitNotice(payload: payload) == nil)
    }

    @Test(Postgres.available) func aListenerHearsTheCommitAndItsTablesOnlyWhenItCommits() throws {
        let url = try Postgres.newDatabaseURL("notice")
        let listener = try PostgreSQLConnection.connect(PostgreSQLAddress(url: url))
        let heard = Mutex<[CommitNotice?]>([])
        try listener.listenForCommits({ notice in heard.withLock { $0.append(notice) } }, closed: {})
        let writer = try PostgreSQLConnection.connect(PostgreSQLAddress(url: url))
        writer.announcer = CommitAnnouncer(idleTimeout: nil) { () throws(StrataError) in try PostgreSQLConnection.connect(PostgreSQLAddress(url: url)) }
        try writer.execute("CREATE TABLE t (id bigint PRIMARY KEY)")
        try writer.beginWriteTransaction()
        try writer.query("INSERT INTO t VALUES (1)")
        _ = try writer.markCommit(tables: ["t"])
        try writer.rollback()
        try writer.beginWriteTransaction()
        try writer.query("INSERT INTO t VALUES (2)")
        let id = try writer.markCommit(tables: ["t"])
        try writer.commit()
        // A statement on the listener's connection makes it read what arrived.
        for _ in 0..<200 where heard.withLock({ $0.isEmpty }) {
            try listener.execute("SELECT 1")
            usleep(5_000)
        }
        let notices = heard.withLock { $0 }
        #expect(notices.map { $0?.id } == [id] && notices.map { $0?.tables } == [["t"]])
        // Sent once the commit was made, by a transaction of its own.
        #expect(try #require(notices.first??.notifier) > id)
    }
}
#endif
