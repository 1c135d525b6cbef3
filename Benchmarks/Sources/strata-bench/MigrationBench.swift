import CBenchSQLite
import Foundation
import Strata

// Migration workloads: Strata's runtime migrating a store, and the same work written by hand in
// SQL, each starting from a copy of the same seeded file.
//
//   add-column-1m      1,000,000 rows gain a column with a default (ALTER TABLE, rows untouched)
//   rebuild-100k       100,000 rows: an Int32 becomes a Double (the table is rebuilt)
//   custom-step-100k   100,000 cows with a barn each, rewritten row by row by a custom step

final class BenchItem: StrataObject { override class var entityName: String { "Item" } }
final class BenchCow: StrataObject { override class var entityName: String { "Cow" } }
final class BenchBarn: StrataObject { override class var entityName: String { "Barn" } }

/// What the custom step writes for a cow.
struct BenchCowValues: MigrationValues {
    var name: String
    var grams: Int64

    func bindColumns(to binder: inout ColumnBinder) {
        binder.bind(string: name)
        binder.bind(int64: grams)
    }
}

enum MigrationBench {
    static let workloads = ["add-column-1m", "rebuild-100k", "custom-step-100k"]

    /// A two-version model for a workload.
    struct Model {
        let v1: ModelVersion
        let v2: ModelVersion
        let types: [StrataObject.Type]
        let steps: [CustomMigrationStep]
        let rows: Int

        func history(current: String) -> SchemaHistory {
            SchemaHistory(model: "Bench", versions: current == "V1" ? [v1] : [v1, v2], migrationChain: current == "V1" ? ["V1"] : ["V1", "V2"], current: current,
                          entityTypes: types, customSteps: steps)
        }
    }

    static func version(_ name: String, _ entities: [EntityDescription], mark: UInt64, migrations: [MigrationDescription] = []) -> ModelVersion {
        ModelVersion(name, entities: entities, versionLock: VersionLock(Dictionary(uniqueKeysWithValues: entities.map { ($0.name, [mark, 0, 0, 0]) })),
                     migrations: migrations)
    }

    static func model(_ workload: String) -> Model {
        let name = AttributeDescription("name", .string)
        switch workload {
        case "add-column-1m", "rebuild-100k":
            let v1 = EntityDescription("Item", attributes: [name, AttributeDescription("score", .int32)])
            let v2 = workload == "add-column-1m"
                ? EntityDescription("Item", attributes: [name, AttributeDescription("score", .int32), AttributeDescription("flag", .bool, default: .integer(0))])
                : EntityDescription("Item", attributes: [name, AttributeDescription("score", .double)])
            return Model(v1: version("V1", [v1], mark: 1), v2: version("V2", [v2], mark: 2), types: [BenchItem.self], steps: [],
                         rows: scaled(workload == "add-column-1m" ? 1_000_000 : 100_000))
        default:
            let barn = EntityDescription("Barn", attributes: [name],
                                         relationships: [RelationshipDescription("cows", destination: "Cow", inverse: "barn", kind: .unordered)])
            let relationships = [RelationshipDescription("barn", destination: "Barn", inverse: "cows")]
            let cow1 = EntityDescription("Cow", attributes: [name, AttributeDescription("weight", .double)], relationships: relationships)
            let cow2 = EntityDescription("Cow", attributes: [name, AttributeDescription("grams", .int64)], relationships: relationships)
            let step = CustomMigrationStep(from: "V1", to: "V2", entity: "Cow") { old in
                guard case .text(let name) = old["name"], case .real(let weight) = old["weight"] else { return nil }
                return BenchCowValues(name: name.uppercased(), grams: Int64(weight * 1_000))
            }
            return Model(v1: version("V1", [barn, cow1], mark: 1),
                         v2: version("V2", [barn, cow2], mark: 2, migrations: [MigrationDescription(from: "V1", entities: [EntityMigrationHint("Cow", custom: true)])]),
                         types: [BenchBarn.self, BenchCow.self], steps: [step], rows: scaled(100_000))
        }
    }

    /// A store at V1 with the workload's rows: created by the runtime, filled with SQL.
    static func seed(_ workload: String, model: Model) async throws -> String {
        let path = Scratch.path("\(workload)-seed")
        let stack = DataStack(model.history(current: "V1"))
        _ = try await stack.closing { try await $0.addStorage(SQLiteStore(fileURL: URL(fileURLWithPath: path))) }
        let database = RawDatabase(path: path)
        database.exec("BEGIN")
        if workload == "custom-step-100k" {
            let barns = database.prepare("INSERT INTO \"Barn\" (\"strata_id\", \"name\") VALUES (?, ?)")
            for id in 1...100 {
                sqlite3_bind_int64(barns, 1, Int64(id))
                sqlite3_bind_text(barns, 2, "barn \(id)", -1, bench_sqlite_transient())
                sqlite3_step(barns)
                sqlite3_reset(barns)
            }
            sqlite3_finalize(barns)
            let cows = database.prepare("INSERT INTO \"Cow\" (\"strata_id\", \"name\", \"weight\", \"barn\") VALUES (?, ?, ?, ?)")
            for id in 1...model.rows {
                sqlite3_bind_int64(cows, 1, Int64(id))
                sqlite3_bind_text(cows, 2, "cow \(id)", -1, bench_sqlite_transient())
                sqlite3_bind_double(cows, 3, Double(id % 900) + 0.5)
                sqlite3_bind_int64(cows, 4, Int64(id % 100 + 1))
                sqlite3_step(cows)
                sqlite3_reset(cows)
            }
            sqlite3_finalize(cows)
        } else {
            let items = database.prepare("INSERT INTO \"Item\" (\"strata_id\", \"name\", \"score\") VALUES (?, ?, ?)")
            for id in 1...model.rows {
                sqlite3_bind_int64(items, 1, Int64(id))
                sqlite3_bind_text(items, 2, "item \(id)", -1, bench_sqlite_transient())
                sqlite3_bind_int64(items, 3, Int64(id % 1_000))
                sqlite3_step(items)
                sqlite3_reset(items)
            }
            sqlite3_finalize(items)
        }
        database.exec("COMMIT")
        database.exec("PRAGMA wal_checkpoint(TRUNCATE)")
        return path
    }

    /// A copy of the seeded file, made before the clock starts.
    static func copy(_ seed: String, for contender: String) throws -> String {
        let path = Scratch.path(contender)
        try FileManager.default.copyItem(atPath: seed, toPath: path)
        return path
    }

    /// Strata opens the store with the V2 model, which migrates it.
    static func strata(_ model: Model, path: String) async throws {
        let stack = DataStack(model.history(current: "V2"))
        _ = try await stack.closing { try await $0.addStorage(SQLiteStore(fileURL: URL(fileURLWithPath: path))) }
    }

    /// The same migration written by hand.
    static func raw(_ workload: String, model: Model, path: String) {
        let database = RawDatabase(path: path)
        database.exec("BEGIN IMMEDIATE")
        switch workload {
        case "add-column-1m":
            database.exec("ALTER TABLE \"Item\" ADD COLUMN \"flag\" INTEGER NOT NULL DEFAULT 0")
        case "rebuild-100k":
            database.exec("CREATE TABLE \"new_Item\" (\"strata_id\" INTEGER PRIMARY KEY NOT NULL, \"name\" TEXT NOT NULL, \"score\" REAL NOT NULL)")
            database.exec("INSERT INTO \"new_Item\" (\"strata_id\", \"name\", \"score\") SELECT \"strata_id\", \"name\", CAST(\"score\" AS REAL) FROM \"Item\"")
            database.exec("DROP TABLE \"Item\"")
            database.exec("ALTER TABLE \"new_Item\" RENAME TO \"Item\"")
        default:
            database.exec("CREATE TABLE \"new_Cow\" (\"strata_id\" INTEGER PRIMARY KEY NOT NULL, \"name\" TEXT NOT NULL, \"grams\" INTEGER NOT NULL, \"barn\" INTEGER)")
            let read = database.prepare("SELECT \"strata_id\", \"name\", \"weight\", \"barn\" FROM \"Cow\"")
            let write = database.prepare("INSERT INTO \"new_Cow\" (\"strata_id\", \"name\", \"grams\", \"barn\") VALUES (?, ?, ?, ?)")
            while sqlite3_step(read) == SQLITE_ROW {
                let name = String(cString: sqlite3_column_text(read, 1)).uppercased()
                sqlite3_bind_int64(write, 1, sqlite3_column_int64(read, 0))
                sqlite3_bind_text(write, 2, name, -1, bench_sqlite_transient())
                sqlite3_bind_int64(write, 3, Int64(sqlite3_column_double(read, 2) * 1_000))
                if sqlite3_column_type(read, 3) == SQLITE_NULL { sqlite3_bind_null(write, 4) } else { sqlite3_bind_int64(write, 4, sqlite3_column_int64(read, 3)) }
                sqlite3_step(write)
                sqlite3_reset(write)
            }
            sqlite3_finalize(read)
            sqlite3_finalize(write)
            database.exec("DROP TABLE \"Cow\"")
            database.exec("ALTER TABLE \"new_Cow\" RENAME TO \"Cow\"")
            database.exec("CREATE INDEX \"strata_index_Cow_1\" ON \"Cow\" (\"barn\")")
        }
        database.exec("UPDATE \"strata_metadata\" SET value = 'V2' WHERE key = 'version'")
        database.exec("UPDATE \"strata_metadata\" SET value = '\(model.v2.versionLock.description)' WHERE key = 'lock'")
        database.exec("COMMIT")
    }

    /// Rows and a sum over the migrated table, to show both did the same work.
    static func checksum(_ workload: String, path: String) -> Checksum {
        let database = RawDatabase(path: path)
        let sql = switch workload {
        case "add-column-1m": "SELECT count(*), total(\"score\") + total(\"flag\") FROM \"Item\""
        case "rebuild-100k": "SELECT count(*), total(\"score\") FROM \"Item\""
        default: "SELECT count(*), total(\"grams\") + total(\"barn\") + total(length(\"name\")) FROM \"Cow\""
        }
        let statement = database.prepare(sql)
        var result = Checksum()
        if sqlite3_step(statement) == SQLITE_ROW {
            result.rows = Int(sqlite3_column_int64(statement, 0))
            result.scoreSum = sqlite3_column_double(statement, 1)
        }
        sqlite3_finalize(statement)
        return result
    }
}

