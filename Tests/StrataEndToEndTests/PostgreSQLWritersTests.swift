// Left out of builds without the PostgreSQL trait (see Package.swift).
#if PostgreSQL
import Foundation
import Synchronization
@testable import Strata
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// Writers side by side on PostgreSQL: row ids from the server in blocks, a one-object
/// transaction in three statements, and stores an earlier Strata wrote continuing past their ids.
@Suite("PostgreSQL writers side by side", Postgres.available)
@MainActor
struct PostgreSQLWritersTests {
    /// The writer connection of the stack's first lane (the one a transaction that runs alone
    /// takes) to its first storage.
    private func writerConnection(_ stack: DataStack) throws -> PostgreSQLConnection {
        let handle = try #require(stack.core.storages.first)
        let lane = stack.writer.first
        let connection = try lane.queue.sync { try lane.connection(for: handle) }
        return try #require(connection as? PostgreSQLConnection)
    }

    /// Two stacks, as two app servers, on one new database.
    private func twoStacks(onOneDatabase prefix: String) async throws -> (DataStack, DataStack) {
        let url = try Postgres.newDatabaseURL(prefix)
        let first = DataStack(Shop.schemaHistory)
        try await first.addStorage(PostgreSQLStore(url: url))
        let second = DataStack(Shop.schemaHistory)
        try await second.addStorage(PostgreSQLStore(url: url))
        return (first, second)
    }

    /// The ID descriptions of new products, created in one transaction.
    private func create(_ count: Int, in stack: DataStack) async throws -> [String] {
        try await stack.perform { transaction in
            (0..<count).map { index in
                let product = transaction.create(Into<Product>())
                product.sku = "P-\(index)-\(UUID().uuidString)"
                return product.objectID(as: Product.self).description
            }
        }
    }

    @Test func aOneObjectTransactionSendsThreeStatements() async throws {
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: Postgres.newDatabaseURL("statements")))
        _ = try await create(1, in: stack)
        let writer = try writerConnection(stack)
        let before = writer.statementsSent
        // BEGIN, the insert with the transaction's id, COMMIT: no lock, no counter; the
        // notification goes on the announcer's connection, gathered with other commits. The
        // insert is a statement the connection prepared at its first use.
        _ = try await create(1, in: stack)
        #expect(writer.statementsSent - before == 3)
        #expect(writer.preparedStatements.count == 1)
        // An update reads its object first; the first one prepares its write (one more round trip).
        try await stack.perform { transaction in try transaction.fetchOne(From<Product>())?.stock += 1 }
        #expect(writer.statementsSent - before == 3 + 5)
        try await stack.perform { transaction in try transaction.fetchOne(From<Product>())?.stock += 1 }
        #expect(writer.statementsSent - before == 3 + 5 + 4)
        #expect(writer.preparedStatements.count == 2)
    }

    /// The app's reads in a transaction can fail without breaking it (see `FailedReadTests`): the
    /// first statement needs nothing for that, a later run of reads one savepoint, sent with its
    /// release without waiting for their answers.
    @Test func readsAfterTheFirstShareOneSavepoint() async throws {
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: Postgres.newDatabaseURL("savepoints")))
        _ = try await create(1, in: stack)
        try await stack.perform { transaction in try transaction.fetchOne(From<Product>())?.stock += 1 }
        let writer = try writerConnection(stack)
        let before = writer.statementsSent
        // BEGIN, SELECT, SAVEPOINT, SELECT, SELECT, RELEASE, UPDATE, COMMIT.
        try await stack.perform { transaction in
            let product = try transaction.fetchOne(From<Product>())
            _ = try transaction.fetchCount(From<Product>())
            _ = try transaction.fetchAll(From<Product>())
            product?.stock += 1
        }
        #expect(writer.statementsSent - before == 8)
        // BEGIN, SELECT, UPDATE, COMMIT: one read, the first statement, needs no savepoint.
        try await stack.perform { transaction in try transaction.fetchOne(From<Product>())?.stock += 1 }
        #expect(writer.statementsSent - before == 8 + 4)
        #expect(try stack.fetchOne(From<Product>())?.stock == 3)
    }

    @Test func idsComeFromTheServerInBlocksThatNoTwoStacksShare() async throws {
        let (first, second) = try await twoStacks(onOneDatabase: "blocks")
        #expect(try await create(3, in: first) == ["Product#1", "Product#2", "Product#3"])
        // The first stack's block runs to 32; the second reserves the next one.
        #expect(try await create(2, in: second) == ["Product#33", "Product#34"])
        #expect(try await create(1, in: first) == ["Product#4"])
        // Past its block, a transaction reserves the next one (35 went to the second stack's
        // last transaction, which reserved 1 id and then 2 and used 2 of the 3).
        let many = try await create(40, in: second)
        #expect(many == (36...75).map { "Product#\($0)" })
    }

    @Test func idsOfDeletedRowsAreNotHandedOutAgain() async throws {
        let url = try Postgres.newDatabaseURL("deleted")
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: url))
        _ = try await create(2, in: stack)
        try await stack.perform { transaction in _ = try transaction.deleteAll(From<Product>()) }
        let fresh = DataStack(Shop.schemaHistory)
        try await fresh.addStorage(PostgreSQLStore(url: url))
        #expect(try await create(1, in: fresh) == ["Product#33"])
    }

    @Test func aStoreAnEarlierStrataWroteContinuesPastItsIDs() async throws {
        let (database, url) = try Postgres.newDatabase("earlier")
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: url))
        _ = try await create(3, in: stack)
        // As an earlier Strata left it: no sequence, and the ids of deleted rows up to 99 recorded.
        let sequence = PostgreSQLRowIDs.sequenceName(table: "Product")
        _ = try Postgres.server().psql("""
            DROP SEQUENCE \(sequence);
            INSERT INTO strata_sequence (name, value) VALUES ('Product', 100);
            """, database: database)
        let reopened = DataStack(Shop.schemaHistory)
        try await reopened.addStorage(PostgreSQLStore(url: url))
        #expect(try await create(1, in: reopened) == ["Product#100"])
        // Past the highest row too, when that is further.
        _ = try Postgres.server().psql("DROP SEQUENCE \(sequence); DELETE FROM strata_sequence;", database: database)
        let again = DataStack(Shop.schemaHistory)
        try await again.addStorage(PostgreSQLStore(url: url))
        #expect(try await create(1, in: again) == ["Product#101"])
    }

    /// Two app servers import the same new IDs at the same moment, round after round: each ID
    /// ends as one row, holding one server's values whole, and neither sees an error.
    @Test func twoServersImportingTheSameIDsAtOnceEndWithOneRowEach() async throws {
        let (first, second) = try await twoStacks(onOneDatabase: "imports")
        let rounds = 12
        for round in 0..<rounds {
            let skus = (0..<20).map { "R\(round)-\($0)" }
            async let byFirst: Void = Self.importProducts(skus, stock: 1, rank: 1, into: first)
            async let bySecond: Void = Self.importProducts(skus, stock: 2, rank: 2, into: second)
            _ = try await (byFirst, bySecond)
        }
        let products = try await first.read { reader in
            try reader.fetchAll(From<Product>()).map { ($0.sku, $0.stock, $0.rank) }
        }
        #expect(products.count == rounds * 20)
        #expect(Set(products.map(\.0)).count == rounds * 20)
        // Whichever server wrote last, it wrote both values of its source.
        #expect(products.allSatisfy { Int($0.1) == Int($0.2) })
    }

    /// A duplicate the transaction makes itself is not another writer's: after the bounded re-runs
    /// it is the uniqueness violation it is, and nothing is saved.
    @Test func aDuplicateOfTheTransactionsOwnIsStillReported() async throws {
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: Postgres.newDatabaseURL("duplicate")))
        let runs = Atomic(0)
        let source = try Product.ImportPayload(jsonObject: ["sku": "X"])
        await #expect(throws: StrataError.uniquenessViolation(entity: "Product", attributes: ["sku"])) {
            try await stack.perform { transaction in
                runs.add(1, ordering: .relaxed)
                _ = try transaction.importUniqueObjects(Into<Product>(), sourceArray: [source])
                transaction.create(Into<Product>()).sku = "X"
            }
        }
        #expect(runs.load(ordering: .relaxed) == 1 + DataStack.importCollisionAttempts)
        #expect(try stack.fetchCount(From<Product>()) == 0)
    }

    /// Imports products with the given SKUs, each with `stock` and `rank`.
    private static func importProducts(_ skus: [String], stock: Int, rank: Int, into stack: DataStack) async throws {
        let sources = try skus.map { try Product.ImportPayload(jsonObject: ["sku": $0, "stock": stock, "rank": rank]) }
        try await stack.perform { transaction in
            _ = try transaction.importUniqueObjects(Into<Product>(), sourceArray: sources)
        }
    }

    /// Nine transactions of one stack, each waiting inside until three have entered: the first
    /// three can only finish if the stack runs three side by side, and it never runs a fourth.
    @Test func aStacksTransactionsRunSideBySideUpToItsMaximum() async throws {
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: Postgres.newDatabaseURL("lanes"), maximumWriters: 3))
        let gauge = TransactionsInside()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<9 {
                group.addTask {
                    try await stack.perform { transaction in
                        gauge.enter()
                        transaction.create(Into<Product>()).sku = "S\(index)"
                        // Bounded so that a stack running one at a time fails instead of hanging.
                        gauge.wait(untilEntered: 3, atMost: .seconds(20))
                        gauge.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(gauge.most == 3)
        #expect(try stack.fetchCount(From<Product>()) == 9)
    }

    /// A statement the server cancels at its `statement_timeout` fails its transaction whole,
    /// with the server's words and SQLSTATE, and is not run again (it is no conflict).
    @Test func aStatementTimeoutFailsTheTransactionWhole() async throws {
        let (database, url) = try Postgres.newDatabase("timeout")
        // The tables first, with no timeout: on a busy machine creating them can take longer.
        try await DataStack(Shop.schemaHistory).addStorage(PostgreSQLStore(url: url))
        _ = try Postgres.server().psql("ALTER DATABASE \(database) SET statement_timeout = '500ms'", database: database)
        // A new store's connections take the database's timeout; it only reads the tables.
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: url))
        let runs = Atomic(0)
        let error = await #expect(throws: StrataError.self) {
            try await stack.perform { transaction in
                runs.add(1, ordering: .relaxed)
                transaction.create(Into<Product>()).sku = "A"
                _ = try transaction.fetchAll(From<Product>().where(Where(sql: "pg_sleep(5) IS NOT NULL")))
            }
        }
        guard case .server(let code, let message, _)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(code == "57014" && message == "canceling statement due to statement timeout")
        let attempts = runs.load(ordering: .relaxed)
        #expect(attempts == 1)
        #expect(try stack.fetchCount(From<Product>()) == 0)
    }

    /// A server (here a role) with no connection left is named with the setting to change, and
    /// nothing is added.
    @Test func aServerWithNoConnectionLeftNamesTheSetting() async throws {
        let server = try Postgres.server()
        let (database, _) = try Postgres.newDatabase("limited")
        let role = "limited_\(database)"
        _ = try server.psql("CREATE ROLE \(role) LOGIN CONNECTION LIMIT 1", database: database)
        let url = "postgres://\(role)@/\(database)?host=\(server.socketFolder)"
        let held = try PostgreSQLConnection.connect(PostgreSQLAddress(url: url))
        defer { held.close() }
        let stack = DataStack(Shop.schemaHistory)
        let address = try PostgreSQLAddress(url: url)
        await #expect(throws: StrataError.serverUnavailable(server: address.server, database: database, reason:
            "too many connections for role \"\(role)\" (SQLSTATE 53300): the server has no connection left for this app; raise its "
            + "max_connections (or the role's or database's CONNECTION LIMIT), or lower maximumWriters across the app servers")) {
            try await stack.addStorage(PostgreSQLStore(url: url))
        }
        #expect(stack.core.storages.isEmpty)
    }

    /// Past its writers, a transaction waits for one up to the busy timeout, then fails with
    /// `storeBusy` having run nothing; the others go on. Off the main actor, which the suites
    /// that open stores synchronously keep busy for seconds at a time in the PostgreSQL pass: the
    /// holders let go only when told (or after ten minutes), however late this test goes on.
    @Test nonisolated func aTransactionWaitsForAWriterUpToTheBusyTimeout() async throws {
        let stack = DataStack(Shop.schemaHistory)
        let store = try await stack.addStorage(PostgreSQLStore(url: Postgres.newDatabaseURL("writers-busy"), busyTimeout: .milliseconds(200),
                                                               maximumWriters: 2))
        let gauge = TransactionsInside()
        // Detached: the holders must not wait for this test's actor, which waits for them below.
        let holding = Task.detached {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<2 {
                    group.addTask {
                        try await stack.perform { transaction in
                            gauge.enter()
                            transaction.create(Into<Product>()).sku = "held-\(index)"
                            gauge.wait(untilEntered: 3, atMost: .seconds(600))
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        // Awaited, not blocked on: a test blocking one of Swift's few pool threads could keep the
        // holders' tasks from starting on a busy machine.
        try #require(await gauge.entered(2, within: .seconds(30)))
        let busy = StrataError.storeBusy(file: store.description.dropFirst("PostgreSQLStore(".count).dropLast().description, milliseconds: 200)
        let ran = Atomic(false)
        // Three waiting at once are each timed out (by one wake-up for all of them).
        let waiting = (0..<3).map { _ in Task { try await stack.perform { _ in } } }
        for transaction in waiting {
            await #expect(throws: busy) { try await transaction.value }
        }
        await #expect(throws: busy) {
            try await stack.perform { _ in ran.store(true, ordering: .relaxed) }
        }
        #expect(throws: busy) {
            try stack.perform(synchronous: { _ in ran.store(true, ordering: .relaxed) })
        }
        let didRun = ran.load(ordering: .relaxed)
        #expect(!didRun)
        gauge.enter()
        try await holding.value
        #expect(try await stack.read { reader in try reader.fetchCount(From<Product>()) } == 2)
    }

    /// Sixteen tasks of one stack add to one product and to one of their own at once: the main
    /// context's objects, held from before, end exactly where the database does, whatever order
    /// the commits were logged in.
    @Test func theMainContextKeepsUpWithCommitsSideBySide() async throws {
        let url = try Postgres.newDatabaseURL("keeps-up")
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: url))
        try await stack.perform { transaction in
            for sku in ["hot"] + (0..<16).map({ "own-\($0)" }) { transaction.create(Into<Product>()).sku = sku }
        }
        let held = try stack.fetchAll(From<Product>().orderBy(.ascending(\.sku)))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for _ in 0..<10 {
                        try await stack.perform { transaction in
                            try transaction.fetchOne(From<Product>().where(\.sku == "hot"))?.stock += 1
                            try transaction.fetchOne(From<Product>().where(\.sku == "own-\(task)"))?.stock += 1
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let fresh = DataStack(Shop.schemaHistory)
        try await fresh.addStorage(PostgreSQLStore(url: url))
        let stored = try fresh.fetchAll(From<Product>().orderBy(.ascending(\.sku))).map { "\($0.sku) \($0.stock)" }
        #expect(stored.first == "hot 160" && stored.dropFirst().allSatisfy { $0.hasSuffix(" 10") })
        #expect(held.map { "\($0.sku) \($0.stock)" } == stored)
    }

    @Test func theMainContextHoldsNoReadTransactionOpenPastItsTurn() async throws {
        let (database, url) = try Postgres.newDatabase("turns")
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: url))
        _ = try await create(2, in: stack)
        let openNow = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction'"
        let products = try stack.fetchAll(From<Product>())
        // Within this stretch of main-actor work the snapshot is open: its reads agree.
        #expect(try Postgres.server().psql(openNow, database: database).trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        await Task.yield()
        #expect(try Postgres.server().psql(openNow, database: database).trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        // The next read starts a new snapshot, and the objects read before are still live.
        #expect(try stack.fetchCount(From<Product>()) == 2)
        #expect(products.map(\.sku).allSatisfy { $0.hasPrefix("P-") })
    }

    /// A burst of four transactions and two reads at once leaves six connections kept (the first
    /// writer's was open before); once they have sat unused for the idle timeout they are closed,
    /// and the next work connects again.
    /// Off the main actor, with ten minutes for the holders, as the busy-timeout test above.
    @Test nonisolated func keptConnectionsAreClosedOnceIdleForTheIdleTimeout() async throws {
        let (database, url) = try Postgres.newDatabase("idle-close")
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: url, idleTimeout: .milliseconds(200)))
        // The announcer's session (its last statement a notification of commits) comes and goes
        // with the commits, on its own idle timeout: counted apart.
        let sessions = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query "
        let count = { (announcers: Bool) throws -> Int in
            let sql = sessions + (announcers ? "" : "NOT ") + "LIKE 'SELECT pg_notify%'"
            return Int(try Postgres.server().psql(sql, database: database).trimmingCharacters(in: .whitespaces.union(.newlines))) ?? -1
        }
        // The first writer's connection and the one that reserves ids are open from here on.
        try await stack.perform { transaction in transaction.create(Into<Product>()).sku = "first" }
        // Once the announcer's session has sent that commit's notification, it is told apart.
        var polls = 0
        while try count(true) == 0, polls < 2_000 {
            try await Task.sleep(for: .milliseconds(5))
            polls += 1
        }
        let before = try count(false)
        let gauge = TransactionsInside()
        // Detached: the transactions must not wait for this test's actor.
        let burst = Task.detached {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<4 {
                    group.addTask {
                        try await stack.perform { transaction in
                            _ = try transaction.fetchCount(From<Product>())
                            gauge.enter()
                            transaction.create(Into<Product>()).sku = "burst-\(index)"
                            gauge.wait(untilEntered: 7, atMost: .seconds(600))
                        }
                    }
                }
                for _ in 0..<2 {
                    group.addTask {
                        _ = try await stack.read { reader in
                            _ = try reader.fetchCount(From<Product>())
                            gauge.enter()
                            gauge.wait(untilEntered: 7, atMost: .seconds(600))
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        // Counted while all six are inside, then let go.
        try #require(await gauge.entered(6, within: .seconds(30)))
        let peak = try count(false)
        gauge.enter()
        try await burst.value
        #expect(peak >= before + 5)
        // Polled until closed, up to a bound far past the timeout (never a pass by waiting).
        let deadline = ContinuousClock.now + .seconds(120)
        var now = peak
        var announcers = 1
        while now > peak - 6 || announcers > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            now = try count(false)
            announcers = try count(true)
        }
        #expect(now <= peak - 6)
        #expect(announcers == 0)
        try await stack.perform { transaction in transaction.create(Into<Product>()).sku = "after" }
        #expect(try await stack.read { reader in try reader.fetchCount(From<Product>()) } == 6)
    }

    @Test func sequenceNamesAreShortAndDistinct() {
        let long = String(repeating: "VeryLongEntityName", count: 5)
        let names = [PostgreSQLRowIDs.sequenceName(table: long + "A"), PostgreSQLRowIDs.sequenceName(table: long + "B")]
        #expect(names.allSatisfy { $0.count == 27 && $0.hasPrefix("strata_ids_") })
        #expect(names[0] != names[1])
    }
}
/// How many transactions are inside at once, and the most there were.
private final class TransactionsInside: Sendable {
    private let inside = Atomic(0)
    private let entered = Atomic(0)
    private let highest = Atomic(0)

    var most: Int { highest.load(ordering: .relaxed) }

    func enter() {
        entered.add(1, ordering: .relaxed)
        let now = inside.add(1, ordering: .relaxed).newValue
        var seen = highest.load(ordering: .relaxed)
        while seen < now {
            let (exchanged, original) = highest.compareExchange(expected: seen, desired: now, ordering: .relaxed)
            if exchanged { break }
            seen = original
        }
    }

    func leave() { inside.subtract(1, ordering: .relaxed) }

    /// Waits, without blocking a thread, until `count` have entered in all (true) or `limit` has
    /// passed (false).
    func entered(_ count: Int, within limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while entered.load(ordering: .relaxed) < count {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return true
    }

    /// Waits (blocking the thread: inside a transaction) until `count` have entered in all, or
    /// `limit` has passed.
    func wait(untilEntered count: Int, atMost limit: Duration) {
        let deadline = ContinuousClock.now + limit
        while entered.load(ordering: .relaxed) < count, ContinuousClock.now < deadline { usleep(1_000) }
    }
}
#endif
