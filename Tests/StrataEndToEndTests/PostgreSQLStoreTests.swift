import Foundation
import Strata
import StrataPostgres
import StrataTestSupport
import Testing

/// The generated `Shop` model on a PostgreSQL server: the same code as on SQLite.
@Suite("PostgreSQLStore", Postgres.available)
@MainActor
struct PostgreSQLStoreTests {
    @Test func createsTheSchemaWritesAndReads() async throws {
        let url = try Postgres.newDatabaseURL("shop")
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: url))
        try await stack.perform { transaction in
            let widget = transaction.create(Into<Product>())
            widget.sku = "W-1"
            let gadget = transaction.create(Into<Product>())
            gadget.sku = "G-1"
            gadget.price = Decimal(string: "19.5")!
        }
        #expect(try stack.fetchAll(From<Product>().orderBy(.ascending(\.sku))).map(\.sku) == ["G-1", "W-1"])
        #expect(try stack.fetchOne(From<Product>().where(\.sku == "G-1"))?.price == Decimal(string: "19.5")!)
    }

    @Test func createRelateFetchQueryAndSnapshot() async throws {
        try await EndToEndTests.createRelateFetchQueryAndSnapshot(on: PostgreSQLStore(url: Postgres.newDatabaseURL("shop")))
    }
}
