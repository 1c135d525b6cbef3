// Left out of builds without the PostgreSQL trait (see Package.swift).
#if PostgreSQL
import Foundation
import Strata
import StrataPostgres
import StrataTestSupport
import Testing

/// The connection that listens for other servers' commits, lost: the stack notices at once (not
/// at its next poll, which these stacks would make an hour later), listens again as soon as the
/// server answers, and its monitors catch up with what was committed meanwhile.
@Suite("PostgreSQL listener lost", Postgres.available, .timeLimit(.minutes(2)))
@MainActor
struct PostgreSQLListenerLossTests {
    @Test func aListenerTheServerTerminatedListensAgainAtOnce() async throws {
        let server = try Postgres.server()
        let (database, url) = try Postgres.newDatabase("relisten")
        let watching = DataStack(Shop.schemaHistory, externalCommitCheckInterval: .seconds(3_600))
        try await watching.addStorage(PostgreSQLStore(url: url))
        let monitor = try watching.monitorList(From<Product>().orderBy(.ascending(\.sku)))
        var updates = monitor.updates.makeAsyncIterator()
        let listener = try await server.listeningSession(in: database)
        try server.psql("SELECT pg_terminate_backend(\(listener), 10000)", database: database)
        let writing = DataStack(Shop.schemaHistory, externalCommitCheckInterval: nil)
        try await writing.addStorage(PostgreSQLStore(url: url))
        try await writing.perform { transaction in transaction.create(Into<Product>()).sku = "A" }
        while monitor.objects.isEmpty, try await updates.next() != nil {}
        #expect(monitor.objects.map(\.sku) == ["A"])
        // Listening again, on a new connection: the next commit arrives by notification too.
        _ = try await server.listeningSession(in: database, other: listener)
        try await writing.perform { transaction in transaction.create(Into<Product>()).sku = "B" }
        while monitor.objects.count < 2, try await updates.next() != nil {}
        #expect(monitor.objects.map(\.sku) == ["A", "B"])
    }

    /// A commit whose notification never came (its writer died between the commit and the
    /// notification; here another program's commit, which sends none) reaches the monitors all the
    /// same: a listening stack accounts for every completed transaction at least every 5 seconds.
    @Test func aCommitWhoseNotificationNeverCameReachesTheMonitors() async throws {
        let server = try Postgres.server()
        let (database, url) = try Postgres.newDatabase("unheard")
        let writing = DataStack(Shop.schemaHistory, externalCommitCheckInterval: nil)
        try await writing.addStorage(PostgreSQLStore(url: url))
        try await writing.perform { transaction in transaction.create(Into<Product>()).sku = "A" }
        let watching = DataStack(Shop.schemaHistory, externalCommitCheckInterval: .milliseconds(100))
        try await watching.addStorage(PostgreSQLStore(url: url))
        let monitor = try watching.monitorList(From<Product>().orderBy(.ascending(\.sku)))
        var updates = monitor.updates.makeAsyncIterator()
        _ = try await server.listeningSession(in: database)
        try server.psql("UPDATE \"Product\" SET stock = 9", database: database)
        while monitor.objects.first?.stock != 9, try await updates.next() != nil {}
        #expect(monitor.objects.map(\.stock) == [9])
    }

    /// The server stopped, so the first tries to listen again fail: the stack keeps trying (soon,
    /// not an interval later) and listens once the server is back.
    @Test func aListenerWhoseServerStoppedListensAgainOnceItIsBack() async throws {
        let server = try PostgresTestServer.startPrivate()
        let database = try server.createDatabase("back")
        let url = server.url(database: database)
        let watching = DataStack(Shop.schemaHistory, externalCommitCheckInterval: .seconds(3_600))
        try await watching.addStorage(PostgreSQLStore(url: url))
        let monitor = try watching.monitorList(From<Product>().orderBy(.ascending(\.sku)))
        var updates = monitor.updates.makeAsyncIterator()
        let listener = try await server.listeningSession(in: database)
        try server.kill()
        // Down long enough that the stack's first tries to listen again fail, whenever they run.
        try await Task.sleep(for: .seconds(1))
        try server.start()
        _ = try await server.listeningSession(in: database, other: listener)
        let writing = DataStack(Shop.schemaHistory, externalCommitCheckInterval: nil)
        try await writing.addStorage(PostgreSQLStore(url: url))
        try await writing.perform { transaction in transaction.create(Into<Product>()).sku = "A" }
        while monitor.objects.isEmpty, try await updates.next() != nil {}
        #expect(monitor.objects.map(\.sku) == ["A"])
    }
}
#endif
