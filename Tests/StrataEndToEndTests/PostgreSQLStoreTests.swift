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

    @Test func aServerThatIsNotThereIsNamedAndNothingIsAdded() async throws {
        let folder = TestFolders.url("no-server").path
        let stack = DataStack(Shop.schemaHistory)
        let store = PostgreSQLStore(url: "postgres://app@/pets?host=\(folder)")
        await #expect(throws: StrataError.serverUnavailable(server: "the Unix socket in \(folder) (port 5432)", database: "pets",
                                                             reason: "no server listens there (No such file or directory); is PostgreSQL running, and is this its socket folder?")) {
            try await stack.addStorage(store)
        }
        #expect(stack.debugDescription == "DataStack(Shop V1: no storage)")
    }

    @Test func aPortNobodyListensOnIsNamed() async throws {
        let stack = DataStack(Shop.schemaHistory)
        await #expect(throws: StrataError.serverUnavailable(server: "127.0.0.1:1", database: "pets",
                                                             reason: "the server refused the connection (Connection refused); "
                                                             + "is PostgreSQL running and listening on that port?")) {
            try await stack.addStorage(PostgreSQLStore(url: "postgres://app@127.0.0.1:1/pets?sslmode=disable"))
        }
    }

    @Test func aDatabaseOfAnotherModelIsRefusedUntouched() async throws {
        let (database, url) = try Postgres.newDatabase("feed")
        try await DataStack(Feed.schemaHistory).addStorage(PostgreSQLStore(url: url))
        let server = try Postgres.server()
        let before = try server.psql("SELECT key, value FROM strata_metadata ORDER BY key", database: database)
        let stack = DataStack(Shop.schemaHistory)
        let name = PostgreSQLStore(url: url).description.dropFirst("PostgreSQLStore(".count).dropLast()
        await #expect(throws: StrataError.differentModel(file: String(name), storeModel: "Feed", expectedModel: "Shop")) {
            try await stack.addStorage(PostgreSQLStore(url: url))
        }
        #expect(try server.psql("SELECT key, value FROM strata_metadata ORDER BY key", database: database) == before)
        #expect(try server.psql("SELECT count(*) FROM pg_tables WHERE tablename = 'Product'", database: database) == "0\n")
    }

    @Test func theDescriptionNeverShowsThePassword() {
        #expect(PostgreSQLStore(url: "postgres://app:secret@db.internal/pets").description == "PostgreSQLStore(postgres://app@db.internal:5432/pets)")
        #expect(PostgreSQLStore(url: "mysql://app:secret@db/pets").description == "PostgreSQLStore(mysql://app:***@db/pets)")
    }
}
