// Left out of builds without the PostgreSQL trait (see Package.swift).
#if PostgreSQL
import Foundation
@testable import Strata
import StrataPostgres
import StrataTestSupport
import Testing

/// `DataStack.close()` on PostgreSQL: every session the stack opened ends.
@Suite("Closing a PostgreSQL stack", Postgres.available)
@MainActor
struct PostgreSQLCloseTests {
    @Test func closingEndsEverySessionTheStackOpened() async throws {
        let (database, url) = try Postgres.newDatabase("close")
        let stack = DataStack(Shop.schemaHistory, externalCommitCheckInterval: .milliseconds(10))
        try await stack.addStorage(PostgreSQLStore(url: url))
        let sessions = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        let count = { () throws -> Int in
            Int(try Postgres.server().psql(sessions, database: database).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        // Writers side by side (several lanes), the row-id reservation, read contexts, the main
        // context, and a monitor (whose watcher listens for other servers' commits).
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<4 {
                group.addTask {
                    try await stack.perform { transaction in
                        _ = try transaction.fetchCount(From<Product>())
                        transaction.create(Into<Product>()).sku = "P-\(index)"
                    }
                }
                group.addTask { _ = try await stack.read { reader in try reader.fetchCount(From<Product>()) } }
            }
            try await group.waitForAll()
        }
        let monitor = try stack.monitorList(From<Product>().orderBy(.ascending(\.sku)))
        #expect(monitor.numberOfObjects == 4)
        // The watcher's listening session opens on its first poll.
        while try count() < 4 { try await Task.sleep(for: .milliseconds(5)) }

        await stack.close()
        #expect(try count() == 0)
        // The store is whole for the next stack.
        let next = DataStack(Shop.schemaHistory)
        try await next.addStorage(PostgreSQLStore(url: url))
        #expect(try next.fetchAll(From<Product>().orderBy(.ascending(\.sku))).map(\.sku) == ["P-0", "P-1", "P-2", "P-3"])
    }
}
#endif
