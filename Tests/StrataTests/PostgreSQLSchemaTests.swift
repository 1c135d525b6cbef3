// Left out of builds without the PostgreSQL trait (see Package.swift).
#if PostgreSQL
import Foundation
import Strata
import StrataPostgres
import StrataTestSupport
import Testing

/// Several configurations of a model share one PostgreSQL database, each store in its schema,
/// with locks of its own.
@Suite("PostgreSQL schemas", Postgres.available)
@MainActor
struct PostgreSQLSchemaTests {
    @Test func eachConfigurationsStoreLivesInItsSchema() async throws {
        let (database, url) = try Postgres.newDatabase("schemas")
        let stack = DataStack(splitHistory)
        for configuration in ["People", "Backup", "Pets"] {
            try await stack.addStorage(PostgreSQLStore(url: url, configuration: configuration))
        }
        // One transaction writes to two schemas: their write locks differ, so neither waits.
        try await stack.perform { transaction in
            transaction.create(Into<Person>("People")).name = "Ann"
            transaction.create(Into<Person>("Backup")).name = "Bob"
        }
        let server = try Postgres.server()
        #expect(try server.psql("SELECT name FROM \"People\".\"Person\"", database: database).trimmingCharacters(in: .whitespacesAndNewlines) == "Ann")
        #expect(try server.psql("SELECT name FROM \"Backup\".\"Person\"", database: database).trimmingCharacters(in: .whitespacesAndNewlines) == "Bob")
        #expect(try server.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'Pets' AND tablename = 'strata_metadata'",
                                database: database).trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        #expect(try server.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", database: database).trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(PostgreSQLStore(url: url, configuration: "People").description
            == "PostgreSQLStore(\(try PostgreSQLAddress(url: url).description) schema People)")
        // Another stack finds each schema's store current.
        let again = DataStack(splitHistory)
        try await again.addStorage(PostgreSQLStore(url: url, configuration: "Backup"))
        #expect(try again.fetchAll(From<Person>("Backup")).map(\.name) == ["Bob"])
    }

    @Test func anExplicitSchemaHoldsTheDefaultConfiguration() async throws {
        let (database, url) = try Postgres.newDatabase("schema")
        let stack = DataStack(Zoo.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: url, schema: "zoo \"one\""))
        try await stack.perform { transaction in transaction.create(Into<Person>()).name = "Ann" }
        #expect(try Postgres.server().psql("SELECT name FROM \"zoo \"\"one\"\"\".\"Person\"", database: database).trimmingCharacters(in: .whitespacesAndNewlines) == "Ann")
    }
}
#endif
