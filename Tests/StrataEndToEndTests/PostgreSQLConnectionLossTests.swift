// Left out of builds without PostgreSQL (STRATA_WITHOUT_POSTGRES=1, see Package.swift).
#if canImport(StrataPostgres)
import Foundation
import Strata
import StrataPostgres
import StrataTestSupport
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

    /// SQL that terminates every other backend of `database`, waiting until each is gone.
    nonisolated static func terminateAll(_ database: String) -> String {
        "SELECT count(pg_terminate_backend(pid, 10000)) FROM pg_stat_activity WHERE datname = '\(database)' AND pid <> pg_backend_pid()"
    }
}
#endif
