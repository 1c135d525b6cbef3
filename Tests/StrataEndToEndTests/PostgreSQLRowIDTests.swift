// Left out of builds without the PostgreSQL trait (see Package.swift).
#if PostgreSQL
import Foundation
@testable import Strata
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// How a stack reserves row ids from the server: one reservation of a table at a time, and
/// larger ones while the table's ids keep running out.
@Suite("PostgreSQL row id reservations", Postgres.available)
struct PostgreSQLRowIDTests {
    /// Sixteen transactions that each need an id at once, on eight lanes: one reservation serves
    /// them all (its block of 32), so they get 1 to 16 and the sequence moved once. Were each to
    /// reserve on its own, they would get ids of several blocks (1, 33, 65, ...).
    @Test func transactionsOutOfIDsAtOnceShareOneReservation() async throws {
        let (database, url) = try Postgres.newDatabase("reservations")
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: url, maximumWriters: 8))
        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<16 {
                group.addTask {
                    try await stack.perform { transaction in
                        let product = transaction.create(Into<Product>())
                        product.sku = "S-\(index)"
                        return product.objectID(as: Product.self).description
                    }
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(ids == Set((1...16).map { "Product#\($0)" }))
        let sequence = PostgreSQLRowIDs.sequenceName(table: "Product")
        let state = try Postgres.server().psql("SELECT last_value, is_called FROM \(sequence)", database: database)
        #expect(state.trimmingCharacters(in: .whitespacesAndNewlines) == "1|t")
        await stack.close()
    }

    /// Transactions waiting for a reservation that fails fail with its error (each trying again
    /// in turn would wait for one connection timeout after another while the server is out of
    /// reach), and nothing of theirs is saved.
    @Test func transactionsWaitingForAFailedReservationFailWithItsError() async throws {
        let (database, url) = try Postgres.newDatabase("reservation-fails")
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: url, maximumWriters: 8))
        let sequence = PostgreSQLRowIDs.sequenceName(table: "Product")
        _ = try Postgres.server().psql("DROP SEQUENCE \(sequence)", database: database)
        let failures = await withTaskGroup(of: String.self) { group in
            for index in 0..<8 {
                group.addTask {
                    do {
                        try await stack.perform { transaction in transaction.create(Into<Product>()).sku = "F-\(index)" }
                        return "saved"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        let expected = StrataError.server(code: "42P01", message: "relation \"\(sequence)\" does not exist",
                                          sql: "SELECT nextval(CAST($2 AS regclass)) FROM generate_series(1, $1)")
        #expect(failures == Array(repeating: "\(expected)", count: 8))
        #expect(try await stack.read { reader in try reader.fetchCount(From<Product>()) } == 0)
        await stack.close()
    }

    /// A reservation takes the blocks its ids need; within a busy spell after the table's last
    /// one, twice that one's blocks, up to 32 (1,024 ids); after a quiet spell, one block again.
    @Test func reservationsGrowWhileATablesIDsKeepRunningOut() {
        let start = ContinuousClock.now
        let soon = start + .milliseconds(200)
        let later = start + PostgreSQLRowIDs.busySpell
        #expect(PostgreSQLRowIDs.steps(for: 1, after: nil, now: start) == 1)
        #expect(PostgreSQLRowIDs.steps(for: 33, after: nil, now: start) == 2)
        #expect(PostgreSQLRowIDs.steps(for: 1, after: (1, start), now: soon) == 2)
        #expect(PostgreSQLRowIDs.steps(for: 1, after: (8, start), now: soon) == 16)
        #expect(PostgreSQLRowIDs.steps(for: 1, after: (32, start), now: soon) == 32)
        #expect(PostgreSQLRowIDs.steps(for: 2_000, after: (32, start), now: soon) == 63)
        #expect(PostgreSQLRowIDs.steps(for: 1, after: (32, start), now: later) == 1)
        #expect(PostgreSQLRowIDs.steps(for: 100, after: (32, start), now: later) == 4)
    }
}
#endif
