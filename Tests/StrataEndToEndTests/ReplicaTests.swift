// Left out of builds without the PostgreSQL trait (see Package.swift).
#if PostgreSQL
import Foundation
@testable import Strata
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// Reads on a hot standby: a store with replicas reads there what the stack must see (its own
/// commits, the commits it heard of, what it showed before), and reads the primary when the
/// replica is down, behind, or no longer a standby. A throwaway primary with one streaming
/// standby; the tests that stop the standby's replay take turns.
@Suite("PostgreSQL read replicas", Postgres.available, .ownServersOnce, .serialized, .timeLimit(.minutes(5)))
@MainActor
struct ReplicaTests {
    private static let cluster = Result { try PostgresTestCluster.start() }

    /// A stack whose store reads from the cluster's standby, on a new database; with `watching`,
    /// it listens for other servers' commits (and its first look, which cannot know what it
    /// missed before, makes replicas catch up with the primary).
    private func stackWithReplica(_ prefix: String, maximumReplicaLag: Duration = .milliseconds(500), watching: Bool = true)
        async throws -> (stack: DataStack, cluster: PostgresTestCluster, database: String) {
        let cluster = try Self.cluster.get()
        let database = try cluster.createDatabase(prefix)
        let stack = DataStack(Shop.schemaHistory, externalCommitCheckInterval: watching ? .milliseconds(100) : nil)
        try await stack.addStorage(PostgreSQLStore(url: cluster.primary.url(database: database),
                                                   replicas: [cluster.standby.url(database: database)],
                                                   maximumReplicaLag: maximumReplicaLag))
        return (stack, cluster, database)
    }

    /// The main context's reading connection, which routes its reads.
    private func mainReader(_ stack: DataStack) throws -> PostgreSQLRoutedReader {
        try #require(stack.main.context.connections[0] as? PostgreSQLRoutedReader)
    }

    /// Another app server writing to the database, which sends no notification (so the stack
    /// under test does not hear of its commits).
    private func silentWriter(_ url: String) async throws -> DataStack {
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: url, externalCommits: .polled))
        return stack
    }

    @Test func readsGoToTheReplicaAndTheStacksOwnCommitIsReadOnThePrimaryWhileTheReplicaLags() async throws {
        let (stack, cluster, database) = try await stackWithReplica("replica-reads", watching: false)
        let other = try await silentWriter(cluster.primary.url(database: database))
        // (So that a busy machine's slow replay does not send the first read to the primary.)
        try cluster.waitForReplay()
        #expect(try stack.fetchCount(From<Product>()) == 0)
        #expect(try mainReader(stack).servingReplica == 0)

        try cluster.pauseReplay()
        defer { try? cluster.resumeReplay() }
        try await other.perform { transaction in transaction.create(Into<Product>()).sku = "other" }
        // The stack read on the replica, which has not replayed the other server's commit.
        try await Task.sleep(for: .milliseconds(1))
        #expect(try stack.fetchCount(From<Product>()) == 0)
        #expect(try mainReader(stack).servingReplica == 0)

        // Its own commit is past what the replica replayed: after waiting its 0.5 s, the read
        // goes to the primary, which has both commits.
        try await stack.perform { transaction in transaction.create(Into<Product>()).sku = "own" }
        #expect(try stack.fetchAll(From<Product>().orderBy(.ascending(\.sku))).map(\.sku) == ["other", "own"])
        #expect(try mainReader(stack).servingReplica == nil)
        let replica = try PostgreSQLAddress(url: cluster.standby.url(database: database))
        #expect(TestLog.shared.contains(.notice, "the replica \(replica) had not replayed what this stack must read after 0.5 seconds; "
                                        + "reads go elsewhere for 5 s"))
    }

    @Test func aReadWaitsForTheReplicaToReplayTheStacksCommit() async throws {
        let (stack, cluster, _) = try await stackWithReplica("replica-waits", maximumReplicaLag: .seconds(60))
        #expect(try stack.fetchCount(From<Product>()) == 0)
        try cluster.pauseReplay()
        // Replay resumes while the read waits for it (well inside its 60 s).
        let resumed = Task.detached {
            try await Task.sleep(for: .milliseconds(300))
            try cluster.resumeReplay()
        }
        try await stack.perform { transaction in transaction.create(Into<Product>()).sku = "own" }
        #expect(try stack.fetchAll(From<Product>()).map(\.sku) == ["own"])
        #expect(try mainReader(stack).servingReplica == 0)
        try await resumed.value
    }

    @Test func anotherServersCommitReachesAMonitorThroughTheReplica() async throws {
        let (stack, cluster, database) = try await stackWithReplica("replica-monitor", maximumReplicaLag: .seconds(60))
        let other = DataStack(Shop.schemaHistory)
        try await other.addStorage(PostgreSQLStore(url: cluster.primary.url(database: database)))
        let products = try stack.monitorList(From<Product>().orderBy(.ascending(\.sku)))
        var updates = products.updates.makeAsyncIterator()
        try await other.perform { transaction in transaction.create(Into<Product>()).sku = "from-other" }
        while products.objects.isEmpty, try await updates.next() != nil {}
        #expect(products.objects.map(\.sku) == ["from-other"])
        #expect(try mainReader(stack).servingReplica == 0)
    }

    @Test func aReplicaThatCannotBeReachedIsSkippedAndReadsGoToThePrimary() async throws {
        let cluster = try Self.cluster.get()
        let database = try cluster.createDatabase("replica-down")
        let down = "postgres://strata@/\(database)?host=/nonexistent-strata-replica"
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: cluster.primary.url(database: database), replicas: [down]))
        try await stack.perform { transaction in transaction.create(Into<Product>()).sku = "kept" }
        #expect(try stack.fetchAll(From<Product>()).map(\.sku) == ["kept"])
        #expect(try mainReader(stack).servingReplica == nil)
        let unreachable = StrataError.serverUnavailable(server: "the Unix socket in /nonexistent-strata-replica (port 5432)", database: database,
                                                        reason: "no server listens there (No such file or directory); is PostgreSQL running, and is this its socket folder?")
        #expect(TestLog.shared.contains(.notice, "the replica postgres://strata@/\(database)?host=/nonexistent-strata-replica cannot be "
                                        + "reached (\(unreachable)); reads go elsewhere for 5 s"))
    }

    @Test func aReplicaURLThatIsNotOneIsRefusedAndNothingIsWritten() async throws {
        let cluster = try Self.cluster.get()
        let database = try cluster.createDatabase("replica-url")
        let stack = DataStack(Shop.schemaHistory)
        await #expect(throws: StrataError.serverUnavailable(server: "mysql://replica/shop", database: "?",
                                                             reason: "the URL's scheme is 'mysql'; a PostgreSQL URL starts with postgres://")) {
            try await stack.addStorage(PostgreSQLStore(url: cluster.primary.url(database: database), replicas: ["mysql://replica/shop"]))
        }
        #expect(try cluster.primary.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", database: database)
            .trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    /// A standby promoted under the app takes writes of its own from then on: the stack stops
    /// reading it, for good, and reads the primary.
    @Test func aReplicaPromotedUnderTheAppIsNoLongerRead() async throws {
        let cluster = try PostgresTestCluster.start()
        let database = try cluster.createDatabase("replica-promoted")
        let replicaURL = cluster.standby.url(database: database)
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: cluster.primary.url(database: database), replicas: [replicaURL]))
        try cluster.waitForReplay()
        #expect(try stack.fetchCount(From<Product>()) == 0)
        #expect(try mainReader(stack).servingReplica == 0)
        try cluster.promoteStandby()
        try await stack.perform { transaction in transaction.create(Into<Product>()).sku = "after" }
        #expect(try stack.fetchAll(From<Product>()).map(\.sku) == ["after"])
        #expect(try mainReader(stack).servingReplica == nil)
        #expect(TestLog.shared.contains(.warning, "the replica \(try PostgreSQLAddress(url: replicaURL)) is no longer a standby "
                                        + "(it was promoted); this stack reads from it no more"))
    }
}
#endif
