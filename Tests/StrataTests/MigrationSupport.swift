import Foundation
@testable import Strata

/// Stores at old versions made from descriptors and plain rows, and read back with SQL: what a
/// migration test needs without generated classes for every version.
enum MigrationSupport {
    /// A version whose lock is made distinct by `mark`, so each version of a test model is recognised.
    static func version(_ name: String, _ entities: [EntityDescription], mark: UInt64, migrations: [MigrationDescription] = [],
                        configurations: [String: [String]] = [:]) -> ModelVersion {
        let lock = VersionLock(Dictionary(uniqueKeysWithValues: entities.map { ($0.name, [mark, 0, 0, UInt64($0.name.count)]) }))
        return ModelVersion(name, entities: entities, configurations: configurations, versionLock: lock, migrations: migrations)
    }

    /// A history of `versions` whose current version is `current`; its classes are placeholders,
    /// since the tests read stores with SQL.
    static func history(_ versions: [ModelVersion], current: String, chain: MigrationChain? = nil,
                        customSteps: [CustomMigrationStep] = []) -> SchemaHistory {
        let names = Set(versions.first { $0.name == current }?.entities.map(\.name) ?? [])
        // The hierarchy tests borrow the Zoo model's Animal, Dog, Cat and Person classes.
        let types: [StrataObject.Type] = [BarnRow.self, CowRow.self, TagRow.self, ShedRow.self, FieldRow.self, HenRow.self, PetRow.self, FishRow.self, Animal.self, Dog.self, Cat.self, Person.self]
            .filter { names.contains($0.entityName) }
        return SchemaHistory(model: "Farm", versions: versions, migrationChain: chain ?? MigrationChain(versions.map(\.name)), current: current,
                             entityTypes: types, customSteps: customSteps)
    }

    /// Creates a store of `version` at `url` holding `rows` (table, then column values).
    static func seed(_ url: URL, version: ModelVersion, rows: [(String, [String: SQLValue])]) throws {
        try DataStack(history([version], current: version.name)).addStorageAndWait(SQLiteStore(fileURL: url))
        let connection = try SQLiteConnection(path: url.path, readOnly: false)
        for (table, values) in rows {
            let keys = values.keys.sorted()
            let statement = try connection.prepare("INSERT INTO " + SQLFragment.quote(table) + " (" + keys.map(SQLFragment.quote).joined(separator: ", ")
                                                   + ") VALUES (" + keys.map { _ in "?" }.joined(separator: ", ") + ")")
            statement.bind(keys.map { values[$0]! })
            _ = try statement.step()
        }
    }

    /// Every row of a query on the file.
    static func query(_ url: URL, _ sql: String) throws -> [[SQLValue]] {
        let connection = try SQLiteConnection(path: url.path, readOnly: true)
        return try StoreOpener.rows(connection, sql)
    }

    /// The file's schema and every row of every table, to show a failed migration changed nothing.
    static func contents(_ url: URL) throws -> [[SQLValue]] {
        var result: [[SQLValue]] = []
        for row in try query(url, "SELECT type, name, sql FROM sqlite_master ORDER BY type, name") {
            result.append(row)
            if case .text("table") = row[0], case .text(let name) = row[1] {
                result += try query(url, "SELECT * FROM " + SQLFragment.quote(name) + " ORDER BY 1")
            }
        }
        return result
    }
}

// Placeholder classes for the test model's entities: a stack needs a class per entity, and the
// migration tests never read objects through them.
final class BarnRow: StrataObject { override class var entityName: String { "Barn" } }
final class CowRow: StrataObject { override class var entityName: String { "Cow" } }
final class TagRow: StrataObject { override class var entityName: String { "Tag" } }
final class ShedRow: StrataObject { override class var entityName: String { "Shed" } }
final class FieldRow: StrataObject { override class var entityName: String { "Field" } }
final class HenRow: StrataObject { override class var entityName: String { "Hen" } }
final class PetRow: StrataObject { override class var entityName: String { "Pet" } }
final class FishRow: StrataObject { override class var entityName: String { "Fish" } }
