// Left out of builds without the PostgreSQL trait (see Package.swift).
#if PostgreSQL
import Foundation
import Strata
import StrataPostgres
import StrataTestSupport
import Synchronization
import Testing

/// A connection the server drops (a restart, a failover, a terminated backend): the transaction
/// that was using it fails whole with a typed error, and the next one connects again.
@Suite("PostgreSQL connections lost", Postgres.available, .timeLimit(.minutes(5)))
@MainActor
struct PostgreSQLConnectionLossTests {
    @Test func aTransactionWhoseConnectionIsLostFailsWholeAndTheNextOneConnectsAgain() async throws {
        let (database, url) = try Postgres.newDatabase("lost")
        let server = try Postgres.server()
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: url))
        try await stack.perform { transaction in transaction.create(Into<Product>()).sku = "A" }
        #expect(try stack.fetchCount(From<Product>()) == 1)
        let address = try PostgreSQLAddress(url: url)
        await #expect(throws: StrataError.connectionLost(server: address.server, database: database)) {
            try await stack.perform { transaction in
                _ = try transaction.fetchAll(From<Product>())
                transaction.create(Into<Product>()).sku = "B"
                try server.psql(Self.terminateAll(database), database: database)
                transaction.create(Into<Product>()).sku = "C"
            }
        }
        // The main context's connection was terminated too: its next fetch connects again.
        #expect(try stack.fetchCount(From<Product>()) == 1)
        try await stack.perform { transaction in transaction.create(Into<Product>()).sku = "D" }
        #expect(try stack.fetchAll(From<Product>().orderBy(.ascending(\.sku))).map(\.sku) == ["A", "D"])
    }

    /// The server stopped at once, as a crash would, and started again under four writers: what
    /// was acknowledged is there, nothing is half-written, in-flight transactions failed with the
    /// connection's error, and the stack's connections are made again.
    @Test func aServerRestartedUnderLoadLosesNoAcknowledgedCommitAndTheStackRecovers() async throws {
        let server = try PostgresTestServer.startPrivate()
        let database = try server.createDatabase("restart")
        let url = server.url(database: database)
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: url))
        try await RestartUnderLoad.run(stack, address: PostgreSQLAddress(url: url), checkingIn: database, on: server) {
            try server.restart()
        }
        #expect(try stack.fetchCount(From<Product>()) >= 160)
    }

    @Test func aMonitorCatchesUpWithCommitsMadeWhileItsListenerWasAway() async throws {
        let (database, url) = try Postgres.newDatabase("away")
        let watching = DataStack(Shop.schemaHistory, externalCommitCheckInterval: .milliseconds(10))
        try await watching.addStorage(PostgreSQLStore(url: url))
        let monitor = try watching.monitorList(From<Product>().orderBy(.ascending(\.sku)))
        var updates = monitor.updates.makeAsyncIterator()
        let writing = DataStack(Shop.schemaHistory)
        try await writing.addStorage(PostgreSQLStore(url: url))
        try await writing.perform { transaction in transaction.create(Into<Product>()).sku = "A" }
        _ = try await updates.next()
        #expect(monitor.objects.map(\.sku) == ["A"])
        try Postgres.server().psql(Self.terminateAll(database), database: database)
        // Committed (by a writer that connects again) while the watching stack's listener is gone.
        try await writing.perform { transaction in transaction.create(Into<Product>()).sku = "B" }
        while monitor.objects.count < 2, try await updates.next() != nil {}
        #expect(monitor.objects.map(\.sku) == ["A", "B"])
    }

    /// Terminated while idle: the pooled connections of read contexts, the writer's and the main
    /// context's. Whether this side sees a close before its next statement or only in answer to
    /// it depends on when the event loop reads the socket; either way nothing fails, and the rounds
    /// give both a chance.
    @Test func idleConnectionsTheServerClosedAreMadeAgainUnnoticed() async throws {
        let (database, url) = try Postgres.newDatabase("idle")
        let server = try Postgres.server()
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: url))
        for round in 1...6 {
            // Two reads at once leave two connections in the read contexts' pool.
            async let first = stack.read { reader in try reader.fetchCount(From<Product>()) }
            async let second = stack.read { reader in try reader.fetchCount(From<Product>()) }
            #expect(try await [first, second] == [round - 1, round - 1])
            try server.psql(Self.terminateAll(database), database: database)
            try await stack.perform { transaction in transaction.create(Into<Product>()).sku = "R\(round)" }
            #expect(try await stack.read { reader in try reader.fetchCount(From<Product>()) } == round)
            try server.psql(Self.terminateAll(database), database: database)
            #expect(try stack.fetchCount(From<Product>()) == round)
        }
    }

    /// The case the rounds above cannot make certain: each connection learns that the server
    /// closed it only from its next statement, the one that starts a snapshot or a write
    /// transaction. Nothing had been sent on it for that work, so it is made again, unnoticed.
    @Test func aCloseSeenOnlyWhenWorkStartsIsMadeAgainUnnoticed() async throws {
        let (stack, relay, _, _) = try await Self.stackThroughRelay("unseen")
        defer { relay.stop() }
        let unsafe = stack.beginUnsafe()
        unsafe.create(Into<Product>()).sku = "A"
        try unsafe.commit()
        #expect(try await stack.read { reader in try reader.fetchCount(From<Product>()) } == 1)
        #expect(try stack.fetchCount(From<Product>()) == 1)
        // The commit ends the main context's snapshot: all four connections now sit idle.
        try await stack.perform { transaction in transaction.create(Into<Product>()).sku = "B" }

        relay.severAll()
        #expect(try stack.fetchCount(From<Product>()) == 2)
        #expect(try await stack.read { reader in try reader.fetchCount(From<Product>()) } == 2)
        try await stack.perform { transaction in transaction.create(Into<Product>()).sku = "C" }
        unsafe.create(Into<Product>()).sku = "D"
        try unsafe.commit()
        // Each of the four found its connection gone at that first statement, and started again;
        // so did the announcer's, as it sent the notification of C (lost, which the listeners'
        // accounting makes up for), soon after C's commit.
        for _ in 0..<1_000 where relay.severedOnUse < 5 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(relay.severedOnUse == 5)
        #expect(try stack.fetchAll(From<Product>().orderBy(.ascending(\.sku))).map(\.sku) == ["A", "B", "C", "D"])
    }

    /// Severed after its write transaction began: the transaction fails whole, however late this
    /// side learns of it, and is not run again; the next one starts on a new connection.
    @Test func aCloseSeenOnlyMidTransactionFailsItWhole() async throws {
        let (stack, relay, url, database) = try await Self.stackThroughRelay("midway")
        defer { relay.stop() }
        let address = try PostgreSQLAddress(url: url)
        let runs = Atomic<Int>(0)
        await #expect(throws: StrataError.connectionLost(server: address.server, database: database)) {
            try await stack.perform { transaction in
                runs.add(1, ordering: .relaxed)
                transaction.create(Into<Product>()).sku = "A"
                _ = try transaction.fetchCount(From<Product>())
                relay.severAll()
                transaction.create(Into<Product>()).sku = "B"
            }
        }
        #expect(runs.load(ordering: .relaxed) == 1)
        #expect(relay.severedOnUse == 1)
        try await stack.perform { transaction in transaction.create(Into<Product>()).sku = "C" }
        #expect(try stack.fetchAll(From<Product>()).map(\.sku) == ["C"])
    }

    /// A stack on a new database of the throwaway server, reached through a new relay (stop it
    /// when done), the store's URL and the database's name.
    static func stackThroughRelay(_ prefix: String) async throws -> (DataStack, SeveringRelay, String, String) {
        let server = try Postgres.server()
        let database = try server.createDatabase(prefix)
        let relay = try SeveringRelay(serverSocketPath: server.socketPath)
        let url = relay.url(database: database, user: server.user)
        let stack = DataStack(Shop.schemaHistory)
        do {
            try await stack.addStorage(PostgreSQLStore(url: url))
        } catch {
            relay.stop()
            throw error
        }
        return (stack, relay, url, database)
    }

    /// SQL that terminates every other backend of `database`, waiting until each is gone.
    nonisolated static func terminateAll(_ database: String) -> String {
        "SELECT count(pg_terminate_backend(pid, 10000)) FROM pg_stat_activity WHERE datname = '\(database)' AND pid <> pg_backend_pid()"
    }
}
#endif
