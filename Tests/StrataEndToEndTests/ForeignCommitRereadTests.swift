// Left out of builds without the PostgreSQL trait (see Package.swift).
#if PostgreSQL
import Foundation
@testable import Strata
import StrataPostgres
import StrataTestSupport
import Testing

/// Another app server's commit re-reads, in a stack that watches, only the objects and monitors of
/// the tables it changed, which its notification names; a commit whose tables are unknown (it
/// changed relationships, or another program wrote) re-reads everything, as before.
///
/// Transaction ids are counted across all of a server's databases, and a transaction the notices
/// do not name (another test's, on another database) re-reads everything; so the suite has a
/// server of its own and runs one test at a time.
@Suite("Foreign commits re-read what they touched", Postgres.available, .serialized, .timeLimit(.minutes(5)))
@MainActor
struct ForeignCommitRereadTests {
    private static let server = Result { try PostgresTestServer.startPrivate() }

    /// A watching stack holding four products (in a list monitor) and two orders, and a writing
    /// stack, on one database.
    private func twoServers() async throws -> (watching: DataStack, writing: DataStack, products: ListMonitor<Product>, orders: [Order],
                                               database: String) {
        let server = try Self.server.get()
        let database = try server.createDatabase("reread")
        let url = server.url(database: database)
        let writing = DataStack(Shop.schemaHistory)
        try await writing.addStorage(PostgreSQLStore(url: url))
        try await writing.perform { transaction in
            for sku in ["A", "B", "C"] { transaction.create(Into<Product>()).sku = sku }
            for number in [1, 2] { transaction.create(Into<Order>()).number = Int64(number) }
        }
        let watching = DataStack(Shop.schemaHistory, externalCommitCheckInterval: .milliseconds(10))
        try await watching.addStorage(PostgreSQLStore(url: url))
        let products = try watching.monitorList(From<Product>().orderBy(.ascending(\.sku)))
        let orders = try watching.fetchAll(From<Order>().orderBy(.ascending(\.number)))
        #expect(products.objects.count == 3 && orders.count == 2)
        // A first commit the watching stack sees: from then on it is listening (what committed
        // before its listener connected is read again whole, whatever it touched).
        var updates = products.updates.makeAsyncIterator()
        try await writing.perform { transaction in transaction.create(Into<Product>()).sku = "Z" }
        while products.objects.count < 4, try await updates.next() != nil {}
        return (watching, writing, products, orders, database)
    }

    @Test func aCommitThatChangedOneTableReReadsOnlyItsObjects() async throws {
        let (watching, writing, products, orders, _) = try await twoServers()
        var updates = products.updates.makeAsyncIterator()
        // Each commit re-reads the four products, not the orders. A snapshot taken between a commit
        // and the arrival of its notice re-reads everything, as it must; the watcher takes one when
        // the previous commit's notice arrives late (after the watcher had already seen that commit
        // through a snapshot of its own), which a test cannot rule out. So three commits in turn:
        // each re-reads its table's objects or, in that race, everything; at least one only its own.
        var rereads: [Int] = []
        for stock in Int32(7)...9 {
            let before = watching.main.objectsReread
            try await writing.perform { transaction in try transaction.fetchOne(From<Product>().where(\.sku == "B"))?.stock = stock }
            // Reading now would start a snapshot that may hold the commit before its notice (sent
            // once the commit is made) has arrived: the update, which the notice brings, comes first.
            _ = try await updates.next()
            while products.objects.first(where: { $0.sku == "B" })?.stock != stock, try await updates.next() != nil {}
            #expect(products.objects.map(\.stock) == [0, stock, 0, 0])
            rereads.append(watching.main.objectsReread - before)
        }
        #expect(rereads.allSatisfy { $0 == 4 || $0 == 6 } && rereads.contains(4), "objects re-read by each commit: \(rereads)")
        #expect(orders.map(\.number) == [1, 2])
        // An insert reaches the list too.
        try await writing.perform { transaction in transaction.create(Into<Product>()).sku = "D" }
        while products.objects.count < 5, try await updates.next() != nil {}
        #expect(products.objects.map(\.sku) == ["A", "B", "C", "D", "Z"])
    }

    @Test func aCommitThatChangedRelationshipsReReadsEverything() async throws {
        let (watching, writing, products, orders, _) = try await twoServers()
        var updates = products.updates.makeAsyncIterator()
        let before = watching.main.objectsReread
        try await writing.perform { transaction in
            let order = try #require(try transaction.fetchOne(From<Order>().where(\.number == 1)))
            let product = try #require(try transaction.fetchOne(From<Product>().where(\.sku == "A")))
            order.products = [product]
            product.stock = 1
        }
        while products.objects.first?.stock != 1, try await updates.next() != nil {}
        #expect(watching.main.objectsReread - before >= 5)
        #expect(orders[0].products.map(\.sku) == ["A"])
    }

    @Test func aCommitOfAnotherProgramInTheSnapshotReReadsEverything() async throws {
        let (watching, writing, products, orders, database) = try await twoServers()
        var updates = products.updates.makeAsyncIterator()
        let before = watching.main.objectsReread
        // Made without Strata, so no notice names its tables; the Strata commit after it is heard,
        // and the snapshot that holds both re-reads every object.
        try Self.server.get().psql("UPDATE \"Order\" SET total = 5 WHERE number = 2", database: database)
        try await writing.perform { transaction in try transaction.fetchOne(From<Product>().where(\.sku == "C"))?.stock = 3 }
        while products.objects.first(where: { $0.sku == "C" })?.stock != 3, try await updates.next() != nil {}
        #expect(watching.main.objectsReread - before >= 5)
        #expect(orders.map(\.total) == [0, 5])
    }
}
#endif
