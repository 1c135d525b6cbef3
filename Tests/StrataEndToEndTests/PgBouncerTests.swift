// Left out of builds without the PostgreSQL trait (see Package.swift).
#if PostgreSQL
import Foundation
@testable import Strata
@testable import StrataPostgres
import StrataTestSupport
import Synchronization
import Testing

/// Stores behind a throwaway PgBouncer in transaction mode, where each transaction may run on a
/// different server session: nothing Strata needs may live in a session.
@Suite("PostgreSQL behind PgBouncer", Postgres.available, Postgres.poolerAvailable, .timeLimit(.minutes(5)))
@MainActor
struct PgBouncerTests {
    /// A new database, and a pooler in front of the throwaway server keeping at most `poolSize`
    /// server connections.
    private func pooledDatabase(_ prefix: String, poolSize: Int) throws -> (name: String, url: String, pooler: PostgresTestPooler) {
        let (name, url) = try Postgres.newDatabase(prefix)
        return (name, url, try PostgresTestPooler(server: Postgres.server(), poolSize: poolSize))
    }

    private func trimmed(_ text: String) -> String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    @Test func storesInTwoSchemasShareServerSessionsAndEachWritesItsOwn() async throws {
        // Two server connections for every client (a transaction and the reservation of ids it
        // makes need two): a setting one store left in a session would send the other's rows to
        // the wrong schema.
        let (database, _, pooler) = try pooledDatabase("schemas", poolSize: 2)
        let alpha = DataStack(Shop.schemaHistory)
        try await alpha.addStorage(PostgreSQLStore(url: pooler.url(database: database), schema: "alpha", pooler: .transactionMode()))
        let beta = DataStack(Shop.schemaHistory)
        try await beta.addStorage(PostgreSQLStore(url: pooler.url(database: database), schema: "beta", pooler: .transactionMode()))
        for round in 0..<3 {
            try await alpha.perform { transaction in transaction.create(Into<Product>()).sku = "A\(round)" }
            try await beta.perform { transaction in
                transaction.create(Into<Product>()).sku = "B\(round)"
                transaction.create(Into<Product>()).sku = "B\(round)+"
            }
        }
        let server = try Postgres.server()
        #expect(trimmed(try server.psql("SELECT string_agg(sku, ',' ORDER BY sku) FROM alpha.\"Product\"", database: database)) == "A0,A1,A2")
        #expect(trimmed(try server.psql("SELECT count(*) FROM beta.\"Product\"", database: database)) == "6")
        #expect(try alpha.fetchCount(From<Product>()) == 3)
        #expect(try await beta.read { reader in try reader.fetchCount(From<Product>()) } == 6)
        #expect(trimmed(try server.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", database: database)) == "0")
        // Both server sessions, held at once, have the settings they started with.
        let sessions = try (0..<2).map { _ in try PostgreSQLConnection.connect(PostgreSQLAddress(url: pooler.url(database: database)), sessionless: true) }
        for session in sessions { try session.execute("BEGIN") }
        for session in sessions {
            #expect(try session.query("SELECT current_setting('search_path') || ' ' || current_setting('lock_timeout')").rows == [[.text("\"$user\", public 0")]])
            try session.rollback()
        }
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["STRATA_TEST_POOLER"] == "pgbouncer", "the suites' pass through PgBouncer only"))
    func theSuitesPassThroughPgBouncerReachesEachDatabaseThroughThePooler() throws {
        let store = try #require(try freshStore() as? PostgreSQLStore)
        let pooler = try #require(try PostgresTestPooler.shared())
        #expect(store.url.contains("host=\(pooler.socketFolder)&port=6432"))
        guard case .transactionMode(let directURL?) = store.pooler else {
            Issue.record("the store does not say it reaches a pooler in transaction mode")
            return
        }
        #expect(directURL.contains("host=\(try Postgres.server().socketFolder)"))
    }

    @Test func aDirectURLThatIsNotAPostgreSQLURLIsRefusedBeforeAnythingIsWritten() async throws {
        let (database, _, pooler) = try pooledDatabase("direct", poolSize: 2)
        let stack = DataStack(Shop.schemaHistory)
        await #expect(throws: StrataError.serverUnavailable(server: "mysql://app@db/pets", database: "?",
                                                           reason: "the URL's scheme is 'mysql'; a PostgreSQL URL starts with postgres://")) {
            try await stack.addStorage(PostgreSQLStore(url: pooler.url(database: database), pooler: .transactionMode(directURL: "mysql://app@db/pets")))
        }
        #expect(stack.core.storages.isEmpty)
        #expect(trimmed(try Postgres.server().psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", database: database)) == "0")
    }

    @Test func aOneObjectTransactionSetsItsSettingsInOneMoreStatement() async throws {
        let (database, _, pooler) = try pooledDatabase("settings", poolSize: 2)
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: pooler.url(database: database), schema: "shop", pooler: .transactionMode()))
        try await stack.perform { transaction in transaction.create(Into<Product>()).sku = "first" }
        let handle = try #require(stack.core.storages.first)
        let lane = stack.writer.first
        let writer = try #require(try lane.queue.sync { try lane.connection(for: handle) } as? PostgreSQLConnection)
        let before = writer.statementsSent
        try await stack.perform { transaction in transaction.create(Into<Product>()).sku = "second" }
        // BEGIN, the schema and lock timeout, the insert with the transaction's id, COMMIT; the
        // notification goes on the announcer's connection.
        #expect(writer.statementsSent - before == 4)
        // A named statement would live in one server session: none is prepared through the pooler.
        #expect(writer.preparedStatements.count == 0)
    }

    @Test func serversOpeningOneNewDatabaseAtOnceCreateItOnce() async throws {
        let (database, _, pooler) = try pooledDatabase("opening", poolSize: 3)
        let url = pooler.url(database: database)
        let stacks = (0..<4).map { _ in DataStack(Shop.schemaHistory) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for stack in stacks {
                group.addTask { try await stack.addStorage(PostgreSQLStore(url: url, pooler: .transactionMode())) }
            }
            try await group.waitForAll()
        }
        for (index, stack) in stacks.enumerated() {
            try await stack.perform { transaction in transaction.create(Into<Product>()).sku = "S\(index)" }
        }
        #expect(try stacks[0].fetchCount(From<Product>()) == 4)
    }

    @Test(arguments: [true, false])
    func anotherServersCommitReachesAMonitorThroughTheDirectURLOrByPolling(listens: Bool) async throws {
        let (database, url, pooler) = try pooledDatabase("heard", poolSize: 2)
        let watching = DataStack(Shop.schemaHistory, externalCommitCheckInterval: .milliseconds(10))
        try await watching.addStorage(PostgreSQLStore(url: pooler.url(database: database), pooler: .transactionMode(directURL: listens ? url : nil)))
        let monitor = try watching.monitorList(From<Product>().orderBy(.ascending(\.sku)))
        var updates = monitor.updates.makeAsyncIterator()
        let writing = DataStack(Shop.schemaHistory)
        try await writing.addStorage(PostgreSQLStore(url: pooler.url(database: database), pooler: .transactionMode()))
        try await writing.perform { transaction in transaction.create(Into<Product>()).sku = "A" }
        while monitor.objects.isEmpty, try await updates.next() != nil {}
        #expect(monitor.objects.map(\.sku) == ["A"])
        try await writing.perform { transaction in transaction.create(Into<Product>()).sku = "B" }
        while monitor.objects.count < 2, try await updates.next() != nil {}
        #expect(monitor.objects.map(\.sku) == ["A", "B"])
    }

    /// The listener (on the direct URL) hears a commit while the pooler the reads go through is
    /// down: the catch-up that cannot read is tried again until the pooler is back, though the
    /// stack would not poll again for an hour.
    @Test func aCommitHeardWhileThePoolerIsDownReachesTheMonitorOnceItIsBack() async throws {
        let (database, url, pooler) = try pooledDatabase("owed", poolSize: 2)
        let watching = DataStack(Shop.schemaHistory, externalCommitCheckInterval: .seconds(3_600))
        try await watching.addStorage(PostgreSQLStore(url: pooler.url(database: database), pooler: .transactionMode(directURL: url)))
        let monitor = try watching.monitorList(From<Product>().orderBy(.ascending(\.sku)))
        var updates = monitor.updates.makeAsyncIterator()
        _ = try await Postgres.server().listeningSession(in: database)
        pooler.stop()
        let writing = DataStack(Shop.schemaHistory, externalCommitCheckInterval: nil)
        try await writing.addStorage(PostgreSQLStore(url: url))
        try await writing.perform { transaction in transaction.create(Into<Product>()).sku = "A" }
        // Down long enough that the catch-up the notification starts fails, whenever it runs.
        try await Task.sleep(for: .seconds(1))
        try pooler.start()
        while monitor.objects.isEmpty, try await updates.next() != nil {}
        #expect(monitor.objects.map(\.sku) == ["A"])
    }

    @Test func aRestartedPoolerLosesNoAcknowledgedCommitAndThePoolRecovers() async throws {
        let (database, _, pooler) = try pooledDatabase("restart", poolSize: 4)
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: pooler.url(database: database), pooler: .transactionMode()))
        let address = try PostgreSQLAddress(url: pooler.url(database: database))
        try await RestartUnderLoad.run(stack, address: address, checkingIn: database, on: Postgres.server()) {
            pooler.stop()
            try pooler.start()
        }
    }
}

#endif
