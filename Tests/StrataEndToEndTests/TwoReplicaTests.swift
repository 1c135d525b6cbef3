// Left out of builds without the PostgreSQL trait (see Package.swift).
#if PostgreSQL
import Foundation
@testable import Strata
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// A store with two read replicas: reads take them in turn, and no read shows an older state than
/// one the stack showed before, even when the next replica in turn is behind. A throwaway primary
/// with two streaming standbys.
@Suite("PostgreSQL with two read replicas", Postgres.available, .ownServersOnce, .serialized, .timeLimit(.minutes(5)))
@MainActor
struct TwoReplicaTests {
    private static let cluster = Result { try PostgresTestCluster.start(standbys: 2) }

    /// A stack on a new database of the cluster that reads from both standbys, in their order.
    private func stackWithTwoReplicas(_ prefix: String, maximumReplicaLag: Duration, watching: Bool)
        async throws -> (stack: DataStack, cluster: PostgresTestCluster, database: String) {
        let cluster = try Self.cluster.get()
        let database = try cluster.createDatabase(prefix)
        let stack = DataStack(Shop.schemaHistory, externalCommitCheckInterval: watching ? .milliseconds(100) : nil)
        try await stack.addStorage(PostgreSQLStore(url: cluster.primary.url(database: database),
                                                   replicas: cluster.standbys.map { $0.url(database: database) },
                                                   maximumReplicaLag: maximumReplicaLag))
        try cluster.waitForReplay()
        return (stack, cluster, database)
    }

    /// What a read context sees of the products, and the replica that served it (nil: the primary).
    private func read(_ stack: DataStack) async throws -> (skus: [String], replica: Int?) {
        try await stack.read { reader in
            let skus = try reader.fetchAll(From<Product>().orderBy(.ascending(\.sku))).map(\.sku)
            return (skus, (reader.context.connections[0] as? PostgreSQLRoutedReader)?.servingReplica)
        }
    }

    /// Each read context reads one snapshot, on the next replica in turn.
    @Test func readsTakeTheReplicasInTurn() async throws {
        let (stack, _, _) = try await stackWithTwoReplicas("two-replicas-turns", maximumReplicaLag: .seconds(60), watching: false)
        var served: [Int?] = []
        for _ in 0..<6 { served.append(try await read(stack).replica) }
        #expect(Set(served) == [0, 1], "\(served)")
        #expect(zip(served, served.dropFirst()).allSatisfy { $0 != $1 }, "\(served)")
    }

    /// The second standby stops replaying; another server's commit, which this stack does not
    /// hear of, reaches the first. Once a read has shown it, every later read shows it too: a
    /// read whose turn falls on the second standby waits for it, then reads elsewhere.
    @Test func noReadShowsAnOlderStateThanOneShownBefore() async throws {
        let (stack, cluster, database) = try await stackWithTwoReplicas("two-replicas-monotonic", maximumReplicaLag: .milliseconds(300),
                                                                         watching: false)
        let other = DataStack(Shop.schemaHistory)
        try await other.addStorage(PostgreSQLStore(url: cluster.primary.url(database: database), externalCommits: .polled))
        try cluster.pauseReplay(standby: 1)
        defer { try? cluster.resumeReplay(standby: 1) }
        try await other.perform { transaction in transaction.create(Into<Product>()).sku = "other" }
        try cluster.waitForReplay()

        var shown: [(skus: [String], replica: Int?)] = []
        for _ in 0..<6 { shown.append(try await read(stack)) }
        let firstNewer = try #require(shown.firstIndex { $0.skus == ["other"] }, "no read showed the other server's commit: \(shown)")
        #expect(shown[firstNewer...].allSatisfy { $0.skus == ["other"] }, "a read went back in time: \(shown)")
        #expect(shown[..<firstNewer].allSatisfy { $0.skus == [] })
        // The paused standby served no read after the newer state was shown.
        #expect(shown[firstNewer...].allSatisfy { $0.replica != 1 }, "\(shown)")
    }

    /// A monitor (re-read on the replicas in turn, as each heard commit ends the main context's
    /// snapshot) shows other servers' commits, and never an older list than one it showed, while
    /// one standby stopped replaying them.
    @Test func aMonitorNeverGoesBackWhileOneReplicaIsBehind() async throws {
        let (stack, cluster, database) = try await stackWithTwoReplicas("two-replicas-monitor", maximumReplicaLag: .milliseconds(300),
                                                                         watching: true)
        let other = DataStack(Shop.schemaHistory)
        try await other.addStorage(PostgreSQLStore(url: cluster.primary.url(database: database)))
        let products = try stack.monitorList(From<Product>().orderBy(.ascending(\.sku)))
        var updates = products.updates.makeAsyncIterator()
        try cluster.pauseReplay(standby: 1)
        defer { try? cluster.resumeReplay(standby: 1) }
        let skus = ["a", "b", "c", "d"]
        var lists: [[String]] = []
        for (count, sku) in skus.enumerated() {
            try await other.perform { transaction in transaction.create(Into<Product>()).sku = sku }
            while products.objects.count <= count, try await updates.next() != nil {
                lists.append(products.objects.map(\.sku))
            }
            lists.append(products.objects.map(\.sku))
        }
        #expect(lists.last == skus)
        #expect(zip(lists, lists.dropFirst()).allSatisfy { $0.count <= $1.count }, "the monitor went back: \(lists)")
    }
}
#endif
