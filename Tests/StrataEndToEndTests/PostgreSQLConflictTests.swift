// Left out of builds without the PostgreSQL trait (see Package.swift).
#if PostgreSQL
import Foundation
import Strata
@testable import StrataPostgres
import StrataTestSupport
import Synchronization
import Testing

/// Serialization failures and deadlocks, forced by a trigger: `perform` runs its closure again
/// on a fresh transaction, a bounded number of times; an unsafe commit reports the conflict.
@Suite("PostgreSQL conflicts", Postgres.available)
@MainActor
struct PostgreSQLConflictTests {
    /// A stack on a new database whose `Product` inserts fail with `code` the first `failures` times.
    private func stack(failing code: String, times failures: Int, instrumentation: RecordingInstrumentation? = nil) async throws -> DataStack {
        let (database, url) = try Postgres.newDatabase("conflict")
        let stack = DataStack(Shop.schemaHistory, instrumentation: instrumentation)
        try await stack.addStorage(PostgreSQLStore(url: url))
        // A sequence is not rolled back with the transaction, so it counts every attempt.
        try Postgres.server().psql("""
            CREATE SEQUENCE attempts;
            CREATE FUNCTION fail_first() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF nextval('attempts') <= \(failures) THEN RAISE EXCEPTION 'forced conflict' USING ERRCODE = '\(code)'; END IF;
                RETURN NEW;
            END $$;
            CREATE TRIGGER fail_first BEFORE INSERT ON "Product" FOR EACH ROW EXECUTE FUNCTION fail_first();
            """, database: database)
        return stack
    }

    @Test(arguments: ["40001", "40P01"])
    func performRunsItsClosureAgainAfterAConflict(code: String) async throws {
        let stack = try await stack(failing: code, times: 2)
        let runs = Atomic(0)
        try await stack.perform { transaction in
            runs.add(1, ordering: .relaxed)
            transaction.create(Into<Product>()).sku = "A"
        }
        #expect(runs.load(ordering: .relaxed) == 3)
        #expect(try stack.fetchAll(From<Product>()).map(\.sku) == ["A"])
    }

    @Test func theInstrumentationCountsTheRunsAndTheConflicts() async throws {
        let recorder = RecordingInstrumentation()
        let stack = try await stack(failing: "40001", times: 2, instrumentation: recorder)
        try await stack.perform { transaction in transaction.create(Into<Product>()).sku = "A" }
        let exhausted = try await self.stack(failing: "40P01", times: 1_000, instrumentation: recorder)
        await #expect(throws: StrataError.self) { try await exhausted.perform { transaction in transaction.create(Into<Product>()).sku = "B" } }
        let reports = recorder.transactions.map(\.report)
        #expect(reports.map(\.outcome) == [.committed, .failed])
        #expect(reports.map(\.attempts) == [3, DataStack.conflictAttempts])
        #expect(reports.map(\.conflicts) == [2, DataStack.conflictAttempts])
        #expect(reports.last?.error == .transactionConflict(code: "40P01", message: "forced conflict", attempts: DataStack.conflictAttempts))
    }

    @Test func aSynchronousPerformRunsAgainToo() async throws {
        let stack = try await stack(failing: "40001", times: 1)
        var runs = 0
        try stack.perform(synchronous: { transaction in
            runs += 1
            transaction.create(Into<Product>()).sku = "A"
        })
        #expect(runs == 2)
        #expect(try stack.fetchCount(From<Product>()) == 1)
    }

    @Test func aConflictThatDoesNotEndIsReportedAfterTheLastAttempt() async throws {
        let stack = try await stack(failing: "40001", times: 1_000)
        let runs = Atomic(0)
        await #expect(throws: StrataError.transactionConflict(code: "40001", message: "forced conflict", attempts: DataStack.conflictAttempts)) {
            try await stack.perform { transaction in
                runs.add(1, ordering: .relaxed)
                transaction.create(Into<Product>()).sku = "A"
            }
        }
        #expect(runs.load(ordering: .relaxed) == DataStack.conflictAttempts)
        #expect(try stack.fetchCount(From<Product>()) == 0)
        #expect(StrataError.transactionConflict(code: "40001", message: "forced conflict", attempts: 20).description
            == "the database server could not apply the transaction alongside concurrent ones (SQLSTATE 40001: forced conflict) "
            + "after 20 attempts; nothing of it was committed: run it again")
    }

    @Test func anUnsafeCommitReportsTheConflictAtOnce() async throws {
        let stack = try await stack(failing: "40001", times: 1)
        let transaction = stack.beginUnsafe()
        transaction.create(Into<Product>()).sku = "A"
        #expect(throws: StrataError.transactionConflict(code: "40001", message: "forced conflict", attempts: 1)) {
            try transaction.commit()
        }
        #expect(try stack.fetchCount(From<Product>()) == 0)
        transaction.create(Into<Product>()).sku = "B"
        try transaction.commit()
        #expect(try stack.fetchAll(From<Product>()).map(\.sku) == ["B"])
    }

    @Test func aDuplicateUniqueValueIsTheSameErrorAsOnSQLite() async throws {
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: Postgres.newDatabaseURL("unique")))
        try await stack.perform { transaction in transaction.create(Into<Order>()).number = 7 }
        await #expect(throws: StrataError.uniquenessViolation(entity: "Order", attributes: ["number"])) {
            try await stack.perform { transaction in transaction.create(Into<Order>()).number = 7 }
        }
        #expect(try stack.fetchCount(From<Order>()) == 1)
    }

    @Test func keyColumnsAreReadFromTheServersDetail() {
        #expect(PostgreSQLConnection.keyColumns("Key (sku)=(W-1) already exists.") == ["sku"])
        #expect(PostgreSQLConnection.keyColumns("Key (\"order\", kind)=(1, a) already exists.") == ["order", "kind"])
        #expect(PostgreSQLConnection.keyColumns("something else") == nil)
    }

    @Test func aTransactionWaitsForARowAnotherChangesUntilItsBusyTimeout() async throws {
        let url = try Postgres.newDatabaseURL("busy")
        let stack = DataStack(Shop.schemaHistory)
        let store = try await stack.addStorage(PostgreSQLStore(url: url, busyTimeout: .milliseconds(200)))
        try await stack.perform { transaction in transaction.create(Into<Product>()).sku = "A" }
        // Another server's writer, in the middle of a transaction that changed the same row.
        let other = try PostgreSQLConnection.connect(PostgreSQLAddress(url: url))
        try other.beginWriteTransaction()
        try other.query(#"UPDATE "Product" SET sku = 'other'"#)
        await #expect(throws: StrataError.storeBusy(file: store.description.dropFirst("PostgreSQLStore(".count).dropLast().description,
                                                    milliseconds: 200)) {
            try await stack.perform { transaction in
                try transaction.fetchOne(From<Product>())?.sku = "B"
            }
        }
        // A new row waits for nobody.
        try await stack.perform { transaction in transaction.create(Into<Product>()).sku = "C" }
        try other.rollback()
        try await stack.perform { transaction in try transaction.fetchOne(From<Product>().where(\.sku == "A"))?.sku = "B" }
        #expect(try stack.fetchAll(From<Product>().orderBy(.ascending(\.sku))).map(\.sku) == ["B", "C"])
    }
}
#endif
