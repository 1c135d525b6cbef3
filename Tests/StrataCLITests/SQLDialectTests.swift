import Foundation
import StrataTestSupport
import Testing

@Suite("strata sql --dialect")
struct SQLDialectTests {
    /// A model with an attribute of every type, a to-many, and an entity whose index names are
    /// longer than PostgreSQL keeps.
    private func model() throws -> String {
        try modelFolder("strata-sql-dialect", ["model.yml": "model: Shop\nmigrationChain: [V1]\n", "V1.yml": """
        version: V1
        entities:
          Item:
            attributes:
              flag: Bool
              small: Int16
              medium: Int32
              large: Int64
              plain: Int
              ratio: Double
              single: Float
              price: Decimal
              name: {type: String, indexed: true}
              born: Date
              bytes: {type: Data, optional: true}
              key: {type: UUID, unique: true}
              link: {type: URL, optional: true}
            relationships:
              tags: {destination: Tag, inverse: items, toMany: unordered}
          Tag:
            relationships:
              items: {destination: Item, inverse: tags, toMany: ordered}
          AnEntityWhoseNameIsLongEnoughToPushItsIndexNamesPastTheLimit:
            attributes:
              first: {type: String, indexed: true}
              second: {type: String, indexed: true}

        """])
    }

    @Test func printsPostgreSQLTypes() throws {
        let run = try runStrata(["sql", try model(), "--dialect", "postgresql"])
        #expect(run.status == 0)
        #expect(run.err == "")
        #expect(run.out == """
        -- Shop V1
        CREATE TABLE "strata_metadata" (key text COLLATE "C" PRIMARY KEY NOT NULL, value text COLLATE "C" NOT NULL);
        CREATE TABLE "strata_sequence" (name text COLLATE "C" PRIMARY KEY NOT NULL, value bigint NOT NULL);
        CREATE TABLE "AnEntityWhoseNameIsLongEnoughToPushItsIndexNamesPastTheLimit" ("strata_id" bigint PRIMARY KEY NOT NULL, \
        "first" text COLLATE "C" NOT NULL, "second" text COLLATE "C" NOT NULL);
        CREATE INDEX "strata_index_AnEntityWhoseNameIsLongEnoughToPu_696b40c4a0481060" ON \
        "AnEntityWhoseNameIsLongEnoughToPushItsIndexNamesPastTheLimit" ("first");
        CREATE INDEX "strata_index_AnEntityWhoseNameIsLongEnoughToPu_696b43c4a0481579" ON \
        "AnEntityWhoseNameIsLongEnoughToPushItsIndexNamesPastTheLimit" ("second");
        CREATE TABLE "Item" ("strata_id" bigint PRIMARY KEY NOT NULL, "flag" boolean NOT NULL, "small" smallint NOT NULL, \
        "medium" integer NOT NULL, "large" bigint NOT NULL, "plain" bigint NOT NULL, "ratio" double precision NOT NULL, \
        "single" real NOT NULL, "price" numeric NOT NULL, "name" text COLLATE "C" NOT NULL, "born" double precision NOT NULL, \
        "bytes" bytea, "key" uuid NOT NULL, "link" text COLLATE "C");
        CREATE INDEX "strata_index_Item_1" ON "Item" ("name");
        CREATE UNIQUE INDEX "strata_unique_Item_2" ON "Item" ("key");
        CREATE TABLE "Tag" ("strata_id" bigint PRIMARY KEY NOT NULL);
        CREATE TABLE "strata_link_Item_4_tags" (owner bigint NOT NULL, target bigint NOT NULL, position bigint NOT NULL DEFAULT 0, \
        PRIMARY KEY (owner, target));
        CREATE INDEX "strata_link_Item_4_tags_target" ON "strata_link_Item_4_tags" (target);
        CREATE TABLE "strata_link_Tag_3_items" (owner bigint NOT NULL, target bigint NOT NULL, position bigint NOT NULL DEFAULT 0, \
        PRIMARY KEY (owner, target));
        CREATE INDEX "strata_link_Tag_3_items_target" ON "strata_link_Tag_3_items" (target);

        """)
    }

    @Test func theSQLiteDialectIsTheDefault() throws {
        let folder = try model()
        let plain = try runStrata(["sql", folder])
        let named = try runStrata(["sql", folder, "--dialect", "sqlite"])
        #expect(plain.status == 0)
        #expect(plain.out == named.out)
        #expect(plain.out.contains(#"CREATE TABLE "Item" ("strata_id" INTEGER PRIMARY KEY NOT NULL, "flag" INTEGER NOT NULL"#))
    }

    @Test func anUnknownDialectIsRefused() throws {
        let run = try runStrata(["sql", try model(), "--dialect", "mysql"])
        #expect(run.status == 64)
        #expect(run.err.contains("Error: The value 'mysql' is invalid for '--dialect <dialect>'. Please provide one of 'sqlite' and 'postgresql'."))
    }

    @Test(Postgres.available) func thePostgreSQLTablesAreCreatedByTheServer() throws {
        let run = try runStrata(["sql", try model(), "--dialect", "postgresql"])
        let server = try Postgres.server()
        let database = try server.createDatabase("ddl")
        try server.psql("BEGIN;\n" + run.out + "COMMIT;", database: database)
        let tables = try server.psql("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename COLLATE \"C\"",
                                     database: database)
        #expect(tables == """
            AnEntityWhoseNameIsLongEnoughToPushItsIndexNamesPastTheLimit
            Item
            Tag
            strata_link_Item_4_tags
            strata_link_Tag_3_items
            strata_metadata
            strata_sequence

            """)
        let indexes = try server.psql("SELECT count(*) FROM pg_indexes WHERE schemaname = 'public' AND indexname LIKE 'strata_index_AnEntity%'",
                                      database: database)
        #expect(indexes == "2\n")
    }
}

@Suite("strata sql --from --dialect postgresql")
struct PostgreSQLMigrationSQLTests {
    /// V1 → V2: `Item.flag` goes from Bool to Int32 (the table is rebuilt), `Item.name` is renamed,
    /// and `Tag` gains a Bool with a default (added in place).
    private func model() throws -> String {
        try modelFolder("strata-sql-dialect", [
            "model.yml": "model: Shop\nmigrationChain: [V1, V2]\n",
            "V1.yml": "version: V1\nentities:\n  Item:\n    attributes:\n      name: String\n      flag: Bool\n  Tag:\n    attributes:\n      label: String\n",
            "V2.yml": "version: V2\nentities:\n  Item:\n    attributes:\n      title: String\n      flag: Int32\n"
                + "  Tag:\n    attributes:\n      label: String\n      active: {type: Bool, default: true}\n"
                + "migration:\n  from: V1\n  entities:\n    Item:\n      attributes:\n        title: {renamedFrom: name}\n",
        ])
    }

    @Test func printsTheStepInPostgreSQL() throws {
        let run = try runStrata(["sql", try model(), "--from", "V1", "--dialect", "postgresql"])
        #expect(run.status == 0)
        #expect(run.out.hasPrefix("""
            -- Shop V1 → V2 (lightweight)
            ALTER TABLE "Tag" ADD COLUMN "active" boolean NOT NULL DEFAULT true;
            CREATE TABLE "strata_migration_Item" ("strata_id" bigint PRIMARY KEY NOT NULL, "title" text COLLATE "C" NOT NULL, "flag" integer NOT NULL);
            INSERT INTO "strata_migration_Item" ("strata_id", "title", "flag") SELECT "strata_id", "name", CAST("flag" AS integer) FROM "Item";
            DROP TABLE "Item";
            ALTER TABLE "strata_migration_Item" RENAME TO "Item";
            UPDATE "strata_metadata" SET value = ? WHERE key = 'version'; -- bound: 'V2'
            UPDATE "strata_metadata" SET value = ? WHERE key = 'lock'; -- bound: '
            """))
    }

    @Test(Postgres.available) func theServerRunsTheStep() throws {
        let folder = try model()
        let server = try Postgres.server()
        let database = try server.createDatabase("migration")
        try server.psql(try runStrata(["sql", folder, "--version", "V1", "--dialect", "postgresql"]).out, database: database)
        try server.psql("""
            INSERT INTO "strata_metadata" VALUES ('version', 'V1'), ('lock', 'x');
            INSERT INTO "strata_sequence" VALUES ('Item', 3), ('Tag', 2);
            INSERT INTO "Item" VALUES (1, 'Rex', true), (2, 'Fido', false);
            INSERT INTO "Tag" VALUES (1, 'dog');
            """, database: database)
        let step = try runStrata(["sql", folder, "--from", "V1", "--dialect", "postgresql"])
        #expect(step.status == 0)
        try server.psql("BEGIN;\n" + Self.inlined(step.out) + "COMMIT;", database: database)
        #expect(try server.psql(#"SELECT "strata_id", "title", "flag" FROM "Item" ORDER BY 1"#, database: database) == "1|Rex|1\n2|Fido|0\n")
        #expect(try server.psql(#"SELECT "label", "active" FROM "Tag""#, database: database) == "dog|t\n")
        #expect(try server.psql(#"SELECT name, value FROM "strata_sequence" ORDER BY 1"#, database: database) == "Item|3\nTag|2\n")
        #expect(try server.psql(#"SELECT value FROM "strata_metadata" WHERE key = 'version'"#, database: database) == "V2\n")
    }

    /// The printed statements with each `?` replaced by its bound value (texts and numbers only),
    /// so psql can run them.
    private static func inlined(_ text: String) -> String {
        text.split(separator: "\n").filter { !$0.hasPrefix("--") }.map { line -> String in
            let parts = line.components(separatedBy: "; -- bound: ")
            guard parts.count == 2 else { return String(line) + "\n" }
            var values = parts[1].isEmpty ? ["''"] : parts[1].components(separatedBy: ", ")
            var statement = ""
            var quoted = false
            for character in parts[0] {
                if character == "'" || character == "\"" { quoted.toggle() }
                if character == "?", !quoted, !values.isEmpty { statement += values.removeFirst() } else { statement.append(character) }
            }
            return statement + ";\n"
        }.joined()
    }
}
