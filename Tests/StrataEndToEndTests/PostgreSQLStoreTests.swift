// Left out of builds without the PostgreSQL trait (see Package.swift).
#if PostgreSQL
import Foundation
import Synchronization
import Strata
@testable import StrataPostgres
import StrataTesting
import StrataTestSupport
import Testing

/// The generated `Shop` model on a PostgreSQL server: the same code as on SQLite.
@Suite("PostgreSQLStore", Postgres.available)
@MainActor
struct PostgreSQLStoreTests {
    @Test func createsTheSchemaWritesAndReads() async throws {
        let url = try Postgres.newDatabaseURL("shop")
        // snippet: postgresql
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: url))   // url: "postgres://app@db.internal:5432/shop"
        try await stack.perform { transaction in
            let widget = transaction.create(Into<Product>())
            widget.sku = "W-1"
            let gadget = transaction.create(Into<Product>())
            gadget.sku = "G-1"
            gadget.price = Decimal(string: "19.5")!
        }
        let skus = try stack.fetchAll(From<Product>().orderBy(.ascending(\.sku))).map(\.sku)
        // end snippet
        #expect(skus == ["G-1", "W-1"])
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

    @Test func aDatabaseOfAnotherVersionLockIsRefusedUntouched() async throws {
        let (database, url) = try Postgres.newDatabase("shop")
        let first = DataStack(Shop.schemaHistory)
        try await first.addStorage(PostgreSQLStore(url: url))
        try await first.perform { $0.create(Into<Product>()).sku = "W-1" }
        let server = try Postgres.server()
        try server.psql("UPDATE strata_metadata SET value = 'Product:1,2,3,4' WHERE key = 'lock'", database: database)
        let before = try server.psql("SELECT key, value FROM strata_metadata ORDER BY key", database: database)
        let name = PostgreSQLStore(url: url).description.dropFirst("PostgreSQLStore(".count).dropLast()
        let stack = DataStack(Shop.schemaHistory)
        await #expect(throws: StrataError.unknownStoreVersion(file: String(name), model: "Shop", storeVersion: "V1")) {
            try await stack.addStorage(PostgreSQLStore(url: url))
        }
        #expect(stack.debugDescription == "DataStack(Shop V1: no storage)")
        #expect(try server.psql("SELECT key, value FROM strata_metadata ORDER BY key", database: database) == before)
        #expect(try server.psql(#"SELECT sku FROM "Product""#, database: database) == "W-1\n")
    }

    @Test func aWrongPasswordIsNamedWithoutShowingItAndNothingIsAdded() async throws {
        let server = try Postgres.server()
        let stack = DataStack(Shop.schemaHistory)
        let store = PostgreSQLStore(url: "postgres://\(server.passwordUser):not-it@/postgres?host=\(server.socketFolder)")
        let error = await #expect(throws: StrataError.self) { try await stack.addStorage(store) }
        #expect(error.map(String.init(describing:)) == "cannot connect to database 'postgres' on the Unix socket in \(server.socketFolder) (port 5432): "
                + "password authentication failed for user \"\(server.passwordUser)\" (SQLSTATE 28P01)")
        #expect(!store.description.contains("not-it"))
        #expect(stack.debugDescription == "DataStack(Shop V1: no storage)")
    }

    @Test func theDescriptionNeverShowsThePassword() {
        #expect(PostgreSQLStore(url: "postgres://app:secret@db.internal/pets").description == "PostgreSQLStore(postgres://app@db.internal:5432/pets)")
        #expect(PostgreSQLStore(url: "mysql://app:secret@db/pets").description == "PostgreSQLStore(mysql://app:***@db/pets)")
    }

    /// A new database holding the Farm model's first release; its URL.
    private func firstReleaseDatabase() throws -> String {
        let (_, url) = try Postgres.newDatabase("farm")
        let seeding = try PostgreSQLConnection.connect(PostgreSQLAddress(url: url))
        let writer = try SeedWriter(connection: seeding, file: url, history: Farm.schemaHistory, version: "V1", configuration: "Default")
        for object in MigrationEndToEndTests.firstRelease {
            try writer.insert(entity: object.entity, id: object.id, attributes: object.attributes.mapValues(\.sqlValue),
                              relationships: object.relationships)
        }
        try writer.finish()
        return url
    }

    @Test func appServersStartingTogetherMigrateOnce() async throws {
        let url = try firstReleaseDatabase()
        let stacks = (0..<4).map { _ in DataStack(Farm.schemaHistory) }
        let reported = try await Self.addAtOnce(stacks, url: url).filter { !$0.isEmpty }
        #expect(reported == [["V1", "V2", "done"]], "the stacks' migration steps: \(reported)")
        try await MigrationEndToEndTests.expectTheCurrentRelease(stacks[0])
        for stack in stacks.dropFirst() { #expect(try stack.fetchCount(From<Cow>()) == 3) }
    }

    /// Adds a store of `url` to every stack at once; the migration steps each reported.
    nonisolated private static func addAtOnce(_ stacks: [DataStack], url: String) async throws -> [[String]] {
        try await withThrowingTaskGroup(of: [String].self) { group in
            for stack in stacks {
                group.addTask {
                    let steps = StepLog()
                    try await stack.addStorage(PostgreSQLStore(url: url)) { progress in
                        steps.append(progress.isFinished ? "done" : progress.sourceVersion)
                    }
                    return steps.all
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func theFirstReleasesDatabaseMigratesToTheCurrentOne() async throws {
        let url = try firstReleaseDatabase()
        let stack = DataStack(Farm.schemaHistory)
        let steps = Mutex<[String]>([])
        try await stack.addStorage(PostgreSQLStore(url: url)) { progress in
            steps.withLock { $0.append(progress.isFinished ? "done" : "\(progress.sourceVersion)→\(progress.destinationVersion)") }
        }
        #expect(steps.withLock { $0 } == ["V1→V2", "V2→V3", "done"])
        try await MigrationEndToEndTests.expectTheCurrentRelease(stack)
        // A second stack finds the database current: nothing to migrate.
        let second = DataStack(Farm.schemaHistory)
        let again = Mutex<[String]>([])
        try await second.addStorage(PostgreSQLStore(url: url)) { progress in again.withLock { $0.append(progress.sourceVersion) } }
        #expect(again.withLock { $0 }.isEmpty)
        #expect(try second.fetchCount(From<Cow>()) == 3)
    }
}

/// The migration steps one stack reported, from its writer queue.
private final class StepLog: Sendable {
    private let steps = Mutex<[String]>([])
    func append(_ step: String) { steps.withLock { $0.append(step) } }
    var all: [String] { steps.withLock { $0 } }
}
#endif
