// Left out of builds without the PostgreSQL trait (see Package.swift).
#if PostgreSQL
import Foundation
import Synchronization
@testable import Strata
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// A URL naming a primary and its standby (`target_session_attrs=read-write`): the stack writes to
/// whichever is the primary, so after the primary dies and the standby is promoted, new
/// transactions reach the new primary; with synchronous replication none of the commits
/// acknowledged before is lost. Each test has a throwaway primary and standby of its own.
@Suite("PostgreSQL failover", Postgres.available, .ownServersOnce, .timeLimit(.minutes(5)))
@MainActor
struct FailoverTests {
    /// The URL of `database` on both servers, the primary first.
    private func bothServers(_ cluster: PostgresTestCluster, database: String) -> String {
        "postgres://strata@/\(database)?host=\(cluster.primary.socketFolder),\(cluster.standby.socketFolder)&target_session_attrs=read-write"
    }

    @Test func newTransactionsReachThePromotedStandbyAndNoAcknowledgedCommitIsLost() async throws {
        let cluster = try PostgresTestCluster.start(synchronous: true)
        let database = try cluster.createDatabase("failover")
        let url = bothServers(cluster, database: database)
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: url))
        for index in 0..<20 {
            try await stack.perform { transaction in transaction.create(Into<Product>()).sku = "before-\(index)" }
        }
        try cluster.primary.kill()
        try cluster.promoteStandby()
        let address = try PostgreSQLAddress(url: url)
        // The first transactions after the failure may find their connections lost; then one reaches the new primary.
        var failures: [StrataError] = []
        while true {
            do {
                try await stack.perform { transaction in transaction.create(Into<Product>()).sku = "after" }
                break
            } catch let error as StrataError {
                failures.append(error)
                try #require(failures.count < 100, "\(failures)")
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        // A connection that is lost names the one server it had reached.
        let servers = Set(address.endpoints.map(PostgreSQLAddress.name))
        #expect(failures.allSatisfy { error in
            if case .serverUnavailable(let server, let name, _) = error { return server == address.server && name == database }
            if case .connectionLost(let server, let name) = error { return servers.contains(server) && name == database }
            return false
        }, "\(failures)")
        let skus = try cluster.standby.psql("SELECT sku FROM \"Product\" ORDER BY sku", database: database).split(separator: "\n")
        #expect(skus == ["after"] + (0..<20).map { "before-\($0)" }.sorted().map { Substring($0) })
        #expect(try stack.fetchCount(From<Product>()) == 21)
    }

    /// Twenty rounds: a writer commits two rows per transaction until the primary is stopped at
    /// a random moment, the standby (synchronous) is promoted, and every transaction the writer
    /// was told committed is there whole.
    @Test func twentyFailoversAtRandomMomentsLoseNoAcknowledgedCommit() async throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var generator = SeededGenerator(state: seed)
        var lost: [String] = []
        var halves: [String] = []
        var acknowledgedInAll = 0
        for round in 0..<20 {
            let cluster = try PostgresTestCluster.start(synchronous: true)
            let database = try cluster.createDatabase("failover_round")
            let stack = DataStack(Shop.schemaHistory, externalCommitCheckInterval: nil)
            try await stack.addStorage(PostgreSQLStore(url: bothServers(cluster, database: database)))
            let acknowledged = Mutex<[String]>([])
            let writer = Task.detached {
                for index in 0... {
                    let tag = "r\(round)-\(index)"
                    do {
                        try await stack.perform { transaction in
                            transaction.create(Into<Product>()).sku = tag + "a"
                            transaction.create(Into<Product>()).sku = tag + "b"
                        }
                    } catch {
                        return
                    }
                    acknowledged.withLock { $0.append(tag) }
                }
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 10...150, using: &generator)))
            try cluster.primary.kill()
            await writer.value
            try cluster.promoteStandby()
            let rows = try cluster.standby.psql("SELECT sku FROM \"Product\"", database: database).split(separator: "\n").map(String.init)
            let tags = Dictionary(grouping: rows) { String($0.dropLast()) }
            halves += tags.filter { $0.value.count != 2 }.keys
            let told = acknowledged.withLock { $0 }
            acknowledgedInAll += told.count
            lost += told.filter { tags[$0] == nil }
            try cluster.standby.kill()
        }
        #expect(lost.isEmpty, "lost acknowledged commits \(lost) (seed \(seed))")
        #expect(halves.isEmpty, "half-written transactions \(halves) (seed \(seed))")
        #expect(acknowledgedInAll >= 20, "the writers were told of \(acknowledgedInAll) commits in all (seed \(seed))")
    }

    @Test func whenNoServerIsAPrimaryTheErrorNamesEachAndWhy() async throws {
        let cluster = try PostgresTestCluster.start()
        let database = try cluster.createDatabase("no-primary")
        try cluster.primary.kill()
        let stack = DataStack(Shop.schemaHistory)
        let url = bothServers(cluster, database: database).replacingOccurrences(of: "strata@", with: "strata:secret@")
        let primary = "the Unix socket in \(cluster.primary.socketFolder) (port 5432)"
        let standby = "the Unix socket in \(cluster.standby.socketFolder) (port 5432)"
        await #expect(throws: StrataError.serverUnavailable(
            server: primary + ", " + standby, database: database,
            reason: "none answered as a read-write server (\(primary): no server listens there (No such file or directory); is PostgreSQL "
                + "running, and is this its socket folder?; \(standby): it is a standby, not a primary)")) {
            try await stack.addStorage(PostgreSQLStore(url: url))
        }
        #expect(!"\(PostgreSQLStore(url: url))".contains("secret"))
    }
}
#endif
