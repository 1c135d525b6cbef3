import Foundation
import Synchronization
import Testing
@testable import Strata

/// The values a custom step of the tests returns: a name and a weight, bound in that order.
private struct CowValues: MigrationValues {
    var name: String
    var weight: Double

    func bindColumns(to binder: inout ColumnBinder) {
        binder.bind(string: name)
        binder.bind(double: weight)
    }
}

private struct StepFailure: Error, CustomStringConvertible {
    var description: String { "the cow is lost" }
}

@Suite("Migrations")
struct MigrationTests {
    typealias M = MigrationSupport

    // V1: a barn with cows; cows carry tags (many-to-many).
    static let barnV1 = EntityDescription("Barn", attributes: [
        AttributeDescription("name", .string),
        AttributeDescription("size", .int32, optional: true),
        AttributeDescription("built", .int16),
    ], relationships: [RelationshipDescription("cows", destination: "Cow", inverse: "barn", kind: .unordered)])
    static let cowV1 = EntityDescription("Cow", attributes: [
        AttributeDescription("name", .string, indexed: true),
        AttributeDescription("weight", .double),
    ], relationships: [
        RelationshipDescription("barn", destination: "Barn", inverse: "cows"),
        RelationshipDescription("tags", destination: "Tag", inverse: "cows", kind: .unordered),
    ])
    static let tagV1 = EntityDescription("Tag", attributes: [AttributeDescription("label", .string)],
                                         relationships: [RelationshipDescription("cows", destination: "Cow", inverse: "tags", kind: .unordered)])
    static let v1 = M.version("V1", [barnV1, cowV1, tagV1], mark: 1)

    /// Two barns, three cows (two in the first barn), two tags.
    static func seedV1(_ url: URL) throws {
        try M.seed(url, version: v1, rows: [
            ("Barn", ["strata_id": .integer(1), "name": .text("North"), "size": .integer(40), "built": .integer(1990)]),
            ("Barn", ["strata_id": .integer(2), "name": .text("South"), "size": .null, "built": .integer(2001)]),
            ("Cow", ["strata_id": .integer(1), "name": .text("Daisy"), "weight": .real(512.5), "barn": .integer(1)]),
            ("Cow", ["strata_id": .integer(2), "name": .text("Bella"), "weight": .real(480), "barn": .integer(1)]),
            ("Cow", ["strata_id": .integer(3), "name": .text("Molly"), "weight": .real(530), "barn": .integer(2)]),
            ("Tag", ["strata_id": .integer(1), "label": .text("calm")]),
            ("Tag", ["strata_id": .integer(2), "label": .text("loud")]),
            ("strata_link_Cow_3_tags", ["owner": .integer(1), "target": .integer(1), "position": .integer(0)]),
            ("strata_link_Cow_3_tags", ["owner": .integer(3), "target": .integer(2), "position": .integer(0)]),
            ("strata_link_Tag_3_cows", ["owner": .integer(1), "target": .integer(1), "position": .integer(0)]),
            ("strata_link_Tag_3_cows", ["owner": .integer(2), "target": .integer(3), "position": .integer(0)]),
        ])
    }

    /// Migrates a seeded V1 store to `current` (with `versions` in the chain) and returns its file.
    private func migrate(to current: ModelVersion, through middle: [ModelVersion] = [], customSteps: [CustomMigrationStep] = [])
        async throws -> URL {
        let url = temporaryStoreURL("Farm.sqlite")
        try Self.seedV1(url)
        let stack = DataStack(M.history([Self.v1] + middle + [current], current: current.name, customSteps: customSteps))
        try await stack.addStorage(SQLiteStore(fileURL: url))
        return url
    }

    private func plan(to version: ModelVersion, from source: ModelVersion = v1) throws -> String {
        try MigrationPlanner(from: source, to: version).plan().sqlText
    }

    // MARK: Inferred steps

    @Test func addingAnAttributeWithADefaultLeavesTheRowsInPlace() async throws {
        let barn = EntityDescription("Barn", attributes: Self.barnV1.attributes + [AttributeDescription("color", .string, default: .text("red"))],
                                     relationships: Self.barnV1.relationships)
        let v2 = M.version("V2", [barn, Self.cowV1, Self.tagV1], mark: 2)
        let sql = try plan(to: v2)
        #expect(sql.contains("ALTER TABLE \"Barn\" ADD COLUMN \"color\" TEXT NOT NULL DEFAULT 'red'"))
        #expect(!sql.contains("INSERT INTO"))
        let url = try await migrate(to: v2)
        #expect(try M.query(url, "SELECT name, color FROM Barn ORDER BY strata_id") == [[.text("North"), .text("red")], [.text("South"), .text("red")]])
        #expect(try M.query(url, "SELECT value FROM strata_metadata WHERE key = 'version'") == [[.text("V2")]])
    }

    @Test func renamedAndRemovedAttributesAlterTheTable() async throws {
        let barn = EntityDescription("Barn", attributes: [AttributeDescription("title", .string), AttributeDescription("size", .int32, optional: true)],
                                     relationships: Self.barnV1.relationships)
        let v2 = M.version("V2", [barn, Self.cowV1, Self.tagV1], mark: 2, migrations: [
            MigrationDescription(from: "V1", entities: [EntityMigrationHint("Barn", renamedProperties: ["title": "name"])]),
        ])
        let sql = try plan(to: v2)
        #expect(sql.contains("ALTER TABLE \"Barn\" DROP COLUMN \"built\""))
        #expect(sql.contains("ALTER TABLE \"Barn\" RENAME COLUMN \"name\" TO \"title\""))
        let url = try await migrate(to: v2)
        #expect(try M.query(url, "SELECT title, size FROM Barn ORDER BY strata_id") == [[.text("North"), .integer(40)], [.text("South"), .null]])
    }

    @Test func losslessTypeChangesRebuildTheTableWithConvertedValues() async throws {
        let barn = EntityDescription("Barn", attributes: [
            AttributeDescription("name", .string), AttributeDescription("size", .double, optional: true), AttributeDescription("built", .string),
        ], relationships: Self.barnV1.relationships)
        let v2 = M.version("V2", [barn, Self.cowV1, Self.tagV1], mark: 2)
        let sql = try plan(to: v2)
        #expect(sql.contains("CREATE TABLE \"strata_migration_Barn\""))
        #expect(sql.contains("CAST(\"size\" AS REAL)") && sql.contains("CAST(\"built\" AS TEXT)"))
        let url = try await migrate(to: v2)
        #expect(try M.query(url, "SELECT size, built FROM Barn ORDER BY strata_id") == [[.real(40), .text("1990")], [.null, .text("2001")]])
        // Relationships survive the rebuild: the cows still point at their barns.
        #expect(try M.query(url, "SELECT barn FROM Cow ORDER BY strata_id") == [[.integer(1)], [.integer(1)], [.integer(2)]])
    }

    @Test func anOptionalAttributeBecomesRequiredWithItsDefault() async throws {
        let barn = EntityDescription("Barn", attributes: [
            AttributeDescription("name", .string), AttributeDescription("size", .int64, default: .integer(10)), AttributeDescription("built", .int16),
        ], relationships: Self.barnV1.relationships)
        let url = try await migrate(to: M.version("V2", [barn, Self.cowV1, Self.tagV1], mark: 2))
        #expect(try M.query(url, "SELECT size FROM Barn ORDER BY strata_id") == [[.integer(40)], [.integer(10)]])
        #expect(try M.query(url, "SELECT \"notnull\" FROM pragma_table_info('Barn') WHERE name = 'size'") == [[.integer(1)]])
    }

    @Test(arguments: [
        (AttributeDescription("weight", .int32), "Cow.weight changes from Double to Int32, which can lose information; migrate Cow with a custom step"),
        (AttributeDescription("weight", .double, optional: true), nil),
    ])
    func aLossyTypeChangeIsRefusedAndTheStoreIsLeftAsItWas(weight: AttributeDescription, message: String?) async throws {
        let cow = EntityDescription("Cow", attributes: [Self.cowV1.attributes[0], weight], relationships: Self.cowV1.relationships)
        let v2 = M.version("V2", [Self.barnV1, cow, Self.tagV1], mark: 2)
        let url = temporaryStoreURL("Farm.sqlite")
        try Self.seedV1(url)
        let before = try M.contents(url)
        let stack = DataStack(M.history([Self.v1, v2], current: "V2"))
        if let message {
            await #expect(throws: StrataError.migrationFailed(file: url.path, from: "V1", to: "V2", reason: message)) {
                try await stack.addStorage(SQLiteStore(fileURL: url))
            }
            #expect(try M.contents(url) == before)
        } else {
            try await stack.addStorage(SQLiteStore(fileURL: url))
            #expect(try M.query(url, "SELECT weight FROM Cow WHERE strata_id = 1") == [[.real(512.5)]])
        }
    }

    @Test func aRequiredAttributeAddedWithoutADefaultIsRefused() throws {
        let barn = EntityDescription("Barn", attributes: Self.barnV1.attributes + [AttributeDescription("owner", .string, required: true)],
                                     relationships: Self.barnV1.relationships)
        #expect(throws: MigrationPlanningError("Barn.owner is added as a required attribute without a default; "
                                               + "give it a default, make it optional, or migrate Barn with a custom step")) {
            try plan(to: M.version("V2", [barn, Self.cowV1, Self.tagV1], mark: 2))
        }
    }

    @Test func renamedEntitiesKeepTheirRowsLinksAndSequence() async throws {
        let shed = EntityDescription("Shed", attributes: Self.barnV1.attributes, relationships: Self.barnV1.relationships)
        let cow = EntityDescription("Cow", attributes: Self.cowV1.attributes, relationships: [
            RelationshipDescription("barn", destination: "Shed", inverse: "cows"), Self.cowV1.relationships[1],
        ])
        let v2 = M.version("V2", [shed, cow, Self.tagV1], mark: 2, migrations: [
            MigrationDescription(from: "V1", entities: [EntityMigrationHint("Shed", renamedFrom: "Barn")]),
        ])
        let url = try await migrate(to: v2)
        #expect(try M.query(url, "SELECT name FROM Shed ORDER BY strata_id") == [[.text("North")], [.text("South")]])
        #expect(try M.query(url, "SELECT count(*) FROM sqlite_master WHERE name = 'Barn'") == [[.integer(0)]])
        #expect(try M.query(url, "SELECT owner, target FROM strata_link_Cow_3_tags ORDER BY owner") == [[.integer(1), .integer(1)], [.integer(3), .integer(2)]])
        #expect(try M.query(url, "SELECT sql IS NOT NULL FROM sqlite_master WHERE name = 'strata_index_Cow_1'") == [[.integer(1)]])
    }

    @Test func deletedAndAddedEntities() async throws {
        let cow = EntityDescription("Cow", attributes: Self.cowV1.attributes, relationships: [Self.cowV1.relationships[1]])
        let field = EntityDescription("Field", attributes: [AttributeDescription("acres", .double)])
        let v2 = M.version("V2", [cow, Self.tagV1, field], mark: 2, migrations: [
            MigrationDescription(from: "V1", entities: [EntityMigrationHint("Barn", deleted: true)]),
        ])
        let url = try await migrate(to: v2)
        let tables = try M.query(url, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'strata_%' ORDER BY name")
        #expect(tables == [[.text("Cow")], [.text("Field")], [.text("Tag")]])
        #expect(try M.query(url, "SELECT name FROM pragma_table_info('Cow') ORDER BY cid") == [[.text("strata_id")], [.text("name")], [.text("weight")]])
        #expect(try M.query(url, "SELECT name FROM strata_sequence WHERE name = 'Barn'") == [])
    }

    @Test func notesSayHowEachTableIsTreated() throws {
        let shed = EntityDescription("Shed", attributes: Self.barnV1.attributes + [AttributeDescription("color", .string, optional: true)],
                                     relationships: Self.barnV1.relationships)
        let cow = EntityDescription("Cow", attributes: [AttributeDescription("name", .string), AttributeDescription("weight", .double)],
                                    relationships: [RelationshipDescription("barn", destination: "Shed", inverse: "cows")])
        let field = EntityDescription("Field", attributes: [AttributeDescription("acres", .double)])
        let v2 = M.version("V2", [shed, cow, field], mark: 2, migrations: [
            MigrationDescription(from: "V1", entities: [EntityMigrationHint("Shed", renamedFrom: "Barn"), EntityMigrationHint("Tag", deleted: true)]),
        ])
        #expect(try MigrationPlanner(from: Self.v1, to: v2).plan().notes == [
            "Cow: changed in place, rows untouched (indexes changed)",
            "Shed: changed in place, rows untouched (renamed from Barn; added color)",
            "Field: created empty",
            "Tag: dropped with its rows",
            "strata_link_Cow_3_tags: link table dropped",
            "strata_link_Tag_3_cows: link table dropped",
        ])
    }

    @Test func aToOneBecomingToManyKeepsEveryLink() async throws {
        let cow = EntityDescription("Cow", attributes: Self.cowV1.attributes, relationships: [
            RelationshipDescription("barns", destination: "Barn", inverse: "cows", kind: .unordered), Self.cowV1.relationships[1],
        ])
        let barn = EntityDescription("Barn", attributes: Self.barnV1.attributes,
                                     relationships: [RelationshipDescription("cows", destination: "Cow", inverse: "barns", kind: .ordered)])
        let v2 = M.version("V2", [barn, cow, Self.tagV1], mark: 2, migrations: [
            MigrationDescription(from: "V1", entities: [EntityMigrationHint("Cow", renamedProperties: ["barns": "barn"])]),
        ])
        let url = try await migrate(to: v2)
        #expect(try M.query(url, "SELECT owner, target FROM strata_link_Cow_3_barns ORDER BY owner") == [
            [.integer(1), .integer(1)], [.integer(2), .integer(1)], [.integer(3), .integer(2)],
        ])
        #expect(try M.query(url, "SELECT owner, target FROM strata_link_Barn_4_cows ORDER BY owner, target") == [
            [.integer(1), .integer(1)], [.integer(1), .integer(2)], [.integer(2), .integer(3)],
        ])
        #expect(try M.query(url, "SELECT count(*) FROM pragma_table_info('Cow') WHERE name = 'barn'") == [[.integer(0)]])
        #expect(try M.query(url, "SELECT count(*) FROM sqlite_temp_master") == [[.integer(0)]])
    }

    @Test func aToManyBecomingToOneIsRefused() throws {
        let tag = EntityDescription("Tag", attributes: Self.tagV1.attributes, relationships: [RelationshipDescription("cow", destination: "Cow", inverse: "tags")])
        let v2 = M.version("V2", [Self.barnV1, Self.cowV1, tag], mark: 2, migrations: [
            MigrationDescription(from: "V1", entities: [EntityMigrationHint("Tag", renamedProperties: ["cow": "cows"])]),
        ])
        #expect(throws: MigrationPlanningError("Tag.cow changes from to-many to to-one, which could cut an object's links to one; "
                                               + "migrate Tag with a custom step")) {
            try plan(to: v2)
        }
        // With a custom step the app decides about each tag, and the relationship starts empty.
        let custom = M.version("V2", [Self.barnV1, Self.cowV1, tag], mark: 2, migrations: [
            MigrationDescription(from: "V1", entities: [EntityMigrationHint("Tag", custom: true, renamedProperties: ["cow": "cows"])]),
        ])
        #expect(try plan(to: custom).contains("-- custom step: the app's step for Tag"))
    }

    // MARK: Custom steps

    static func customV2(_ hint: EntityMigrationHint = EntityMigrationHint("Cow", custom: true)) -> ModelVersion {
        let cow = EntityDescription("Cow", attributes: [AttributeDescription("name", .string), AttributeDescription("weight", .double)],
                                    relationships: Self.cowV1.relationships)
        return M.version("V2", [Self.barnV1, cow, Self.tagV1], mark: 2, migrations: [MigrationDescription(from: "V1", entities: [hint])])
    }

    @Test func aCustomStepProducesEachRowAndLeftOutRowsLoseTheirLinks() async throws {
        let step = CustomMigrationStep(from: "V1", to: "V2", entity: "Cow") { old in
            guard case .text(let name) = old["name"], name != "Molly", case .real(let weight) = old["weight"] else { return nil }
            return CowValues(name: name.uppercased(), weight: weight / 1_000)
        }
        let url = try await migrate(to: Self.customV2(), customSteps: [step])
        #expect(try M.query(url, "SELECT strata_id, name, weight, barn FROM Cow ORDER BY strata_id") == [
            [.integer(1), .text("DAISY"), .real(0.5125), .integer(1)],
            [.integer(2), .text("BELLA"), .real(0.48), .integer(1)],
        ])
        // Molly (3) was left out: her tag links are gone on both sides.
        #expect(try M.query(url, "SELECT owner, target FROM strata_link_Cow_3_tags") == [[.integer(1), .integer(1)]])
        #expect(try M.query(url, "SELECT owner, target FROM strata_link_Tag_3_cows") == [[.integer(1), .integer(1)]])
        #expect(try M.query(url, "PRAGMA integrity_check") == [[.text("ok")]])
    }

    @Test func aThrowingCustomStepLeavesTheStoreAsItWas() async throws {
        let step = CustomMigrationStep(from: "V1", to: "V2", entity: "Cow") { _ in throw StepFailure() }
        let url = temporaryStoreURL("Farm.sqlite")
        try Self.seedV1(url)
        let before = try M.contents(url)
        let stack = DataStack(M.history([Self.v1, Self.customV2()], current: "V2", customSteps: [step]))
        await #expect(throws: StrataError.migrationFailed(file: url.path, from: "V1", to: "V2", reason: "the custom step for Cow threw the cow is lost")) {
            try await stack.addStorage(SQLiteStore(fileURL: url))
        }
        #expect(try M.contents(url) == before)
    }

    @Test func aCustomStepTheAppDoesNotHaveFailsBeforeAnythingIsWritten() async throws {
        let url = temporaryStoreURL("Farm.sqlite")
        try Self.seedV1(url)
        let before = try M.contents(url)
        let stack = DataStack(M.history([Self.v1, Self.customV2()], current: "V2"))
        await #expect(throws: StrataError.migrationFailed(file: url.path, from: "V1", to: "V2",
                                                          reason: "the app has no custom step for Cow; implement it in its FarmMigrator")) {
            try await stack.addStorage(SQLiteStore(fileURL: url))
        }
        #expect(try M.contents(url) == before)
    }

    // MARK: Walking the chain

    @Test func aStoreWalksEveryStepOfTheChainInOneGo() async throws {
        let barn2 = EntityDescription("Barn", attributes: Self.barnV1.attributes + [AttributeDescription("color", .string, optional: true)],
                                      relationships: Self.barnV1.relationships)
        let v2 = M.version("V2", [barn2, Self.cowV1, Self.tagV1], mark: 2)
        let barn3 = EntityDescription("Barn", attributes: [AttributeDescription("label", .string)] + barn2.attributes.dropFirst(),
                                      relationships: Self.barnV1.relationships)
        let v3 = M.version("V3", [barn3, Self.cowV1, Self.tagV1], mark: 3, migrations: [
            MigrationDescription(from: "V2", entities: [EntityMigrationHint("Barn", renamedProperties: ["label": "name"])]),
        ])
        let progress = ProgressLog()
        let url = temporaryStoreURL("Farm.sqlite")
        try Self.seedV1(url)
        let stack = DataStack(M.history([Self.v1, v2, v3], current: "V3"))
        #expect(try stack.requiredMigrations(for: SQLiteStore(fileURL: url)) == [
            .lightweight(sourceVersion: "V1", destinationVersion: "V2"), .lightweight(sourceVersion: "V2", destinationVersion: "V3"),
        ])
        try await stack.addStorage(SQLiteStore(fileURL: url)) { progress.append($0) }
        #expect(try M.query(url, "SELECT label, color FROM Barn ORDER BY strata_id") == [[.text("North"), .null], [.text("South"), .null]])
        #expect(try stack.requiredMigrations(for: SQLiteStore(fileURL: url)) == [])
        #expect(progress.values.map(\.step) == [0, 1, 2])
        #expect(progress.values.last?.isFinished == true)
    }

    @Test func aTreeChainLeadsEveryBranchToTheCurrentVersion() async throws {
        let barnB = EntityDescription("Barn", attributes: Self.barnV1.attributes + [AttributeDescription("gate", .bool, default: .integer(1))],
                                      relationships: Self.barnV1.relationships)
        let vB = M.version("VB", [barnB, Self.cowV1, Self.tagV1], mark: 5)
        let v2 = M.version("V2", [barnB, Self.cowV1, Self.tagV1], mark: 2)
        let url = temporaryStoreURL("Farm.sqlite")
        try Self.seedV1(url)
        let stack = DataStack(M.history([Self.v1, vB, v2], current: "V2", chain: ["V1": "V2", "VB": "V2"]))
        #expect(try stack.requiredMigrations(for: SQLiteStore(fileURL: url)) == [.lightweight(sourceVersion: "V1", destinationVersion: "V2")])
        try await stack.addStorage(SQLiteStore(fileURL: url))
        #expect(try M.query(url, "SELECT gate FROM Barn ORDER BY strata_id") == [[.integer(1)], [.integer(1)]])
    }

    @Test func addStorageAndWaitMigratesOnlyLightweightStepsItIsAllowedTo() throws {
        let barn = EntityDescription("Barn", attributes: Self.barnV1.attributes + [AttributeDescription("color", .string, optional: true)],
                                     relationships: Self.barnV1.relationships)
        let v2 = M.version("V2", [barn, Self.cowV1, Self.tagV1], mark: 2)
        let url = temporaryStoreURL("Farm.sqlite")
        try Self.seedV1(url)
        #expect(throws: StrataError.migrationRequired(file: url.path, storeVersion: "V1", currentVersion: "V2")) {
            try DataStack(M.history([Self.v1, v2], current: "V2")).addStorageAndWait(SQLiteStore(fileURL: url))
        }
        try DataStack(M.history([Self.v1, v2], current: "V2"))
            .addStorageAndWait(SQLiteStore(fileURL: url, localStorageOptions: .allowSynchronousLightweightMigration))
        #expect(try M.query(url, "SELECT value FROM strata_metadata WHERE key = 'version'") == [[.text("V2")]])
        let custom = temporaryStoreURL("Farm.sqlite")
        try Self.seedV1(custom)
        let step = CustomMigrationStep(from: "V1", to: "V2", entity: "Cow") { _ in nil }
        #expect(throws: StrataError.migrationRequired(file: custom.path, storeVersion: "V1", currentVersion: "V2")) {
            try DataStack(M.history([Self.v1, Self.customV2()], current: "V2", customSteps: [step]))
                .addStorageAndWait(SQLiteStore(fileURL: custom, localStorageOptions: .allowSynchronousLightweightMigration))
        }
    }

    @Test func aStoreFromANewerAppIsRefusedUntouched() async throws {
        let v2 = M.version("V2", [Self.barnV1, Self.cowV1, Self.tagV1], mark: 2)
        let url = temporaryStoreURL("Farm.sqlite")
        try M.seed(url, version: v2, rows: [])
        let before = try M.contents(url)
        // An app that knows V2 but whose chain ends at V1.
        let stack = DataStack(M.history([Self.v1, v2], current: "V1", chain: ["V1", "V2"]))
        await #expect(throws: StrataError.noMigrationPath(file: url.path, storeVersion: "V2", currentVersion: "V1")) {
            try await stack.addStorage(SQLiteStore(fileURL: url))
        }
        // An app that does not know V2 at all.
        await #expect(throws: StrataError.newerStoreVersion(file: url.path, storeVersion: "V2", currentVersion: "V1")) {
            try await DataStack(M.history([Self.v1], current: "V1")).addStorage(SQLiteStore(fileURL: url))
        }
        #expect(try M.contents(url) == before)
    }

    // MARK: Hierarchies, indexes and relationships

    static let animal = EntityDescription("Animal", abstract: true, attributes: [AttributeDescription("name", .string)])
    static let dog = EntityDescription("Dog", parent: "Animal", attributes: [AttributeDescription("barks", .bool, default: .integer(1))])
    static let hen = EntityDescription("Hen", parent: "Animal", attributes: [AttributeDescription("eggs", .int32, default: .integer(0))])
    static let pets = M.version("V1", [animal, dog, hen], mark: 1)

    private func seedPets(_ url: URL) throws {
        // Codes in V1: Animal 1, Dog 2, Hen 3.
        try M.seed(url, version: Self.pets, rows: [
            ("Animal", ["strata_id": .integer(1), "strata_entity": .integer(2), "name": .text("Rex"), "barks": .integer(1)]),
            ("Animal", ["strata_id": .integer(2), "strata_entity": .integer(3), "name": .text("Ada"), "eggs": .integer(6)]),
        ])
    }

    @Test func aNewSubentityRenumbersTheOthersInPlace() async throws {
        let cat = EntityDescription("Cat", parent: "Animal", attributes: [AttributeDescription("lives", .int16, default: .integer(9))])
        let v2 = M.version("V2", [Self.animal, cat, Self.dog, Self.hen], mark: 2)
        let sql = try plan(to: v2, from: Self.pets)
        #expect(sql.contains("UPDATE \"Animal\" SET \"strata_entity\" = CASE \"strata_entity\" WHEN ? THEN ? WHEN ? THEN ? WHEN ? THEN ? END; "
                             + "-- bound: 1, 1, 2, 3, 3, 4"))
        #expect(!sql.contains("INSERT INTO"))
        let url = temporaryStoreURL("Farm.sqlite")
        try seedPets(url)
        try await DataStack(M.history([Self.pets, v2], current: "V2")).addStorage(SQLiteStore(fileURL: url))
        // Codes in V2: Animal 1, Cat 2, Dog 3, Hen 4.
        #expect(try M.query(url, "SELECT name, strata_entity, lives FROM Animal ORDER BY strata_id") == [
            [.text("Rex"), .integer(3), .integer(9)], [.text("Ada"), .integer(4), .integer(9)],
        ])
    }

    @Test func anEntityLeavingItsHierarchyTakesItsRowsToItsOwnTable() async throws {
        let dog = EntityDescription("Dog", attributes: [AttributeDescription("name", .string), AttributeDescription("barks", .bool, default: .integer(1))])
        let v2 = M.version("V2", [Self.animal, dog, Self.hen], mark: 2)
        let url = temporaryStoreURL("Farm.sqlite")
        try seedPets(url)
        try await DataStack(M.history([Self.pets, v2], current: "V2")).addStorage(SQLiteStore(fileURL: url))
        #expect(try M.query(url, "SELECT strata_id, name, barks FROM Dog") == [[.integer(1), .text("Rex"), .integer(1)]])
        #expect(try M.query(url, "SELECT strata_id, strata_entity, name, eggs FROM Animal") == [[.integer(2), .integer(2), .text("Ada"), .integer(6)]])
    }

    @Test func anEntityJoiningAHierarchyTakesNewIdsAndReferencesFollow() async throws {
        let dogV1 = EntityDescription("Dog", attributes: [AttributeDescription("name", .string), AttributeDescription("barks", .bool, default: .integer(1))],
                                      relationships: [RelationshipDescription("owners", destination: "Person", inverse: "dog", kind: .unordered),
                                                      RelationshipDescription("friends", destination: "Dog", inverse: "friends", kind: .unordered)])
        let person = EntityDescription("Person", attributes: [AttributeDescription("name", .string)],
                                       relationships: [RelationshipDescription("dog", destination: "Dog", inverse: "owners")])
        let v1 = M.version("V1", [Self.animal, Self.hen, dogV1, person], mark: 1)
        let dogV2 = EntityDescription("Dog", parent: "Animal", attributes: [AttributeDescription("barks", .bool, default: .integer(1))],
                                      relationships: dogV1.relationships)
        let v2 = M.version("V2", [Self.animal, Self.hen, dogV2, person], mark: 2)
        let url = temporaryStoreURL("Farm.sqlite")
        // V1 codes in Animal: Animal 1, Hen 2. Dog has a table of its own, whose ids repeat the hens'.
        try M.seed(url, version: v1, rows: [
            ("Animal", ["strata_id": .integer(1), "strata_entity": .integer(2), "name": .text("Ada"), "eggs": .integer(6)]),
            ("Animal", ["strata_id": .integer(2), "strata_entity": .integer(2), "name": .text("Bea"), "eggs": .integer(4)]),
            ("Dog", ["strata_id": .integer(1), "name": .text("Rex"), "barks": .integer(1)]),
            ("Dog", ["strata_id": .integer(2), "name": .text("Max"), "barks": .integer(0)]),
            ("Person", ["strata_id": .integer(1), "name": .text("Ann"), "dog": .integer(2)]),
            ("strata_link_Dog_3_friends", ["owner": .integer(1), "target": .integer(2), "position": .integer(0)]),
            ("strata_link_Dog_3_friends", ["owner": .integer(2), "target": .integer(1), "position": .integer(0)]),
        ])
        try await DataStack(M.history([v1, v2], current: "V2")).addStorage(SQLiteStore(fileURL: url))
        // V2 codes in Animal: Animal 1, Dog 2, Hen 3; the dogs come after the hens.
        #expect(try M.query(url, "SELECT strata_id, strata_entity, name FROM Animal ORDER BY strata_id") == [
            [.integer(1), .integer(3), .text("Ada")], [.integer(2), .integer(3), .text("Bea")],
            [.integer(3), .integer(2), .text("Rex")], [.integer(4), .integer(2), .text("Max")],
        ])
        #expect(try M.query(url, "SELECT dog FROM Person") == [[.integer(4)]])
        #expect(try M.query(url, "SELECT owner, target FROM strata_link_Animal_6_friends ORDER BY owner") == [
            [.integer(3), .integer(4)], [.integer(4), .integer(3)],
        ])
        #expect(try M.query(url, "SELECT count(*) FROM sqlite_master WHERE name IN ('Dog', 'strata_link_Dog_3_friends')") == [[.integer(0)]])
        #expect(try M.query(url, "SELECT count(*) FROM sqlite_temp_master") == [[.integer(0)]])
        #expect(try M.query(url, "PRAGMA integrity_check") == [[.text("ok")]])
    }

    @Test func anEntityMovingBetweenHierarchiesLeavesTheOthersIdsAlone() async throws {
        let person = EntityDescription("Person", attributes: [AttributeDescription("name", .string)], relationships: [
            RelationshipDescription("dog", destination: "Dog", inverse: "owners"),
            RelationshipDescription("hen", destination: "Hen", inverse: "keepers"),
        ])
        let dogV1 = EntityDescription("Dog", parent: "Animal", attributes: [AttributeDescription("barks", .bool, default: .integer(1))],
                                      relationships: [RelationshipDescription("owners", destination: "Person", inverse: "dog", kind: .unordered)])
        let hen = EntityDescription("Hen", parent: "Animal", attributes: [AttributeDescription("eggs", .int32, default: .integer(0))],
                                    relationships: [RelationshipDescription("keepers", destination: "Person", inverse: "hen", kind: .unordered)])
        let pet = EntityDescription("Pet", abstract: true, attributes: [AttributeDescription("name", .string)])
        let fish = EntityDescription("Fish", parent: "Pet")
        let v1 = M.version("V1", [Self.animal, dogV1, hen, person, pet, fish], mark: 1)
        let dogV2 = EntityDescription("Dog", parent: "Pet", attributes: dogV1.attributes, relationships: dogV1.relationships)
        let v2 = M.version("V2", [Self.animal, dogV2, hen, person, pet, fish], mark: 2)
        let url = temporaryStoreURL("Farm.sqlite")
        // V1 codes: Animal table (Animal 1, Dog 2, Hen 3); Pet table (Pet 1, Fish 2).
        try M.seed(url, version: v1, rows: [
            ("Animal", ["strata_id": .integer(1), "strata_entity": .integer(3), "name": .text("Ada"), "eggs": .integer(6)]),
            ("Animal", ["strata_id": .integer(2), "strata_entity": .integer(2), "name": .text("Rex"), "barks": .integer(1)]),
            ("Pet", ["strata_id": .integer(1), "strata_entity": .integer(2), "name": .text("Nemo")]),
            ("Person", ["strata_id": .integer(1), "name": .text("Ann"), "dog": .integer(2), "hen": .integer(1)]),
        ])
        try await DataStack(M.history([v1, v2], current: "V2")).addStorage(SQLiteStore(fileURL: url))
        // V2 codes: Animal table (Animal 1, Hen 2); Pet table (Pet 1, Dog 2, Fish 3). Rex takes an id past Nemo's and his own.
        #expect(try M.query(url, "SELECT strata_id, strata_entity, name FROM Animal") == [[.integer(1), .integer(2), .text("Ada")]])
        #expect(try M.query(url, "SELECT strata_id, strata_entity, name FROM Pet ORDER BY strata_id") == [
            [.integer(1), .integer(3), .text("Nemo")], [.integer(4), .integer(2), .text("Rex")],
        ])
        #expect(try M.query(url, "SELECT dog, hen FROM Person") == [[.integer(4), .integer(1)]])
    }

    @Test func indexesFollowTheModel() async throws {
        let cow = EntityDescription("Cow", attributes: [AttributeDescription("name", .string, unique: true), Self.cowV1.attributes[1]],
                                    relationships: Self.cowV1.relationships)
        let v2 = M.version("V2", [Self.barnV1, cow, Self.tagV1], mark: 2)
        let sql = try plan(to: v2)
        #expect(sql.contains("DROP INDEX \"strata_index_Cow_1\""))
        #expect(sql.contains("CREATE UNIQUE INDEX \"strata_unique_Cow_1\" ON \"Cow\" (\"name\")"))
        let url = try await migrate(to: v2)
        #expect(try M.query(url, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Cow' ORDER BY name")
                == [[.text("strata_index_Cow_2")], [.text("strata_unique_Cow_1")]])
    }

    @Test func aUniqueIndexOverRepeatedValuesFailsTheMigrationCleanly() async throws {
        let barn = EntityDescription("Barn", attributes: [AttributeDescription("name", .string), AttributeDescription("size", .int32, optional: true),
                                                          AttributeDescription("built", .int16, unique: true)],
                                     relationships: Self.barnV1.relationships)
        let v2 = M.version("V2", [barn, Self.cowV1, Self.tagV1], mark: 2)
        let url = temporaryStoreURL("Farm.sqlite")
        try Self.seedV1(url)
        let connection = try SQLiteConnection(path: url.path, readOnly: false)
        try connection.execute("UPDATE Barn SET built = 1990")
        let before = try M.contents(url)
        let stack = DataStack(M.history([Self.v1, v2], current: "V2"))
        await #expect {
            try await stack.addStorage(SQLiteStore(fileURL: url))
        } throws: { error in
            "\(error)".hasPrefix("migrating '\(url.path)' from 'V1' to 'V2' failed, and the store was left as it was: SQLite error 2067: UNIQUE constraint failed: Barn.built")
        }
        #expect(try M.contents(url) == before)
    }

    @Test func renamedRelationshipsKeepTheirLinks() async throws {
        let cow = EntityDescription("Cow", attributes: Self.cowV1.attributes, relationships: [
            RelationshipDescription("home", destination: "Barn", inverse: "cows"),
            RelationshipDescription("labels", destination: "Tag", inverse: "cows", kind: .unordered),
        ])
        let barn = EntityDescription("Barn", attributes: Self.barnV1.attributes,
                                     relationships: [RelationshipDescription("cows", destination: "Cow", inverse: "home", kind: .unordered)])
        let tag = EntityDescription("Tag", attributes: Self.tagV1.attributes,
                                    relationships: [RelationshipDescription("cows", destination: "Cow", inverse: "labels", kind: .unordered)])
        let v2 = M.version("V2", [barn, cow, tag], mark: 2, migrations: [
            MigrationDescription(from: "V1", entities: [EntityMigrationHint("Cow", renamedProperties: ["home": "barn", "labels": "tags"])]),
        ])
        let url = try await migrate(to: v2)
        #expect(try M.query(url, "SELECT home FROM Cow ORDER BY strata_id") == [[.integer(1)], [.integer(1)], [.integer(2)]])
        #expect(try M.query(url, "SELECT owner, target FROM strata_link_Cow_3_labels ORDER BY owner") == [[.integer(1), .integer(1)], [.integer(3), .integer(2)]])
        #expect(try M.query(url, "SELECT count(*) FROM sqlite_master WHERE name = 'strata_link_Cow_3_tags'") == [[.integer(0)]])
    }

    // MARK: Progress

    @Test func progressArrivesAsAStreamAndAsAFoundationProgress() async throws {
        let barn = EntityDescription("Barn", attributes: Self.barnV1.attributes + [AttributeDescription("color", .string, optional: true)],
                                     relationships: Self.barnV1.relationships)
        let v2 = M.version("V2", [barn, Self.cowV1, Self.tagV1], mark: 2)
        let custom = M.version("V3", [barn, Self.cowV1, Self.tagV1], mark: 3, migrations: [
            MigrationDescription(from: "V2", entities: [EntityMigrationHint("Cow", custom: true)]),
        ])
        let stepV3 = CustomMigrationStep(from: "V2", to: "V3", entity: "Cow") { old in
            guard case .text(let name) = old["name"], case .real(let weight) = old["weight"] else { return nil }
            return CowValues(name: name, weight: weight)
        }
        let url = temporaryStoreURL("Farm.sqlite")
        try Self.seedV1(url)
        let stack = DataStack(M.history([Self.v1, v2, custom], current: "V3", customSteps: [stepV3]))
        var values: [MigrationProgress] = []
        for try await value in stack.addStorageWithProgress(SQLiteStore(fileURL: url)) { values.append(value) }
        #expect(values.map(\.step) == [0, 1, 2])
        #expect(values.map(\.fractionCompleted) == [0, 0.5, 1])
        #expect(values.last?.isFinished == true)
        #expect(try M.query(url, "SELECT count(*) FROM Cow") == [[.integer(3)]])

        let other = temporaryStoreURL("Farm.sqlite")
        try Self.seedV1(other)
        let progress = Progress(totalUnitCount: 0)
        try await DataStack(M.history([Self.v1, v2, custom], current: "V3", customSteps: [stepV3]))
            .addStorage(SQLiteStore(fileURL: other), reportingTo: progress)
        #expect(progress.totalUnitCount == 2_000)
        #expect(progress.completedUnitCount == 2_000)
    }

    @MainActor @Test func theCompletionFormMigratesAndReportsOnTheMainActor() async throws {
        let url = temporaryStoreURL("Farm.sqlite")
        try Self.seedV1(url)
        let barn = EntityDescription("Barn", attributes: Self.barnV1.attributes + [AttributeDescription("color", .string, optional: true)],
                                     relationships: Self.barnV1.relationships)
        let stack = DataStack(M.history([Self.v1, M.version("V2", [barn, Self.cowV1, Self.tagV1], mark: 2)], current: "V2"))
        var progress: Progress?
        let result: Result<SQLiteStore, StrataError> = await withCheckedContinuation { continuation in
            progress = stack.addStorage(SQLiteStore(fileURL: url)) { result in
                MainActor.assertIsolated()
                continuation.resume(returning: result)
            }
        }
        #expect(try result.get().fileURL == url)
        #expect(progress?.completedUnitCount == progress?.totalUnitCount)
        #expect(try stack.requiredMigrations(for: SQLiteStore(fileURL: url)).isEmpty)

        let failed: Result<InMemoryStore, StrataError> = await withCheckedContinuation { continuation in
            stack.addStorage(InMemoryStore(configuration: "Nowhere")) { continuation.resume(returning: $0) }
        }
        #expect(throws: StrataError.unknownConfiguration("Nowhere", available: ["Default"])) { try failed.get() }
    }

    @Test func theStreamThrowsWhatAddingThrows() async throws {
        let url = temporaryStoreURL("Farm.sqlite")
        try Self.seedV1(url)
        let stack = DataStack(M.history([Self.v1, Self.customV2()], current: "V2"))
        await #expect(throws: StrataError.migrationFailed(file: url.path, from: "V1", to: "V2",
                                                          reason: "the app has no custom step for Cow; implement it in its FarmMigrator")) {
            for try await _ in stack.addStorageWithProgress(SQLiteStore(fileURL: url)) {}
        }
    }

    // MARK: Bad input

    static let widerBarn = M.version("V2", [
        EntityDescription("Barn", attributes: [AttributeDescription("name", .string), AttributeDescription("size", .double, optional: true),
                                               AttributeDescription("built", .int16)], relationships: barnV1.relationships),
        cowV1, tagV1,
    ], mark: 2)

    @Test func recreatingOnMismatchReplacesOnlyAStoreNoMigrationCanOpen() async throws {
        let v2 = M.version("V2", [Self.barnV1, Self.cowV1, Self.tagV1], mark: 2)
        let newer = temporaryStoreURL("Farm.sqlite")
        try M.seed(newer, version: v2, rows: [("Barn", ["strata_id": .integer(1), "name": .text("North"), "built": .integer(1990)])])
        // An app whose chain ends at V1 cannot migrate a V2 store: the option replaces it, empty.
        try await DataStack(M.history([Self.v1, v2], current: "V1"))
            .addStorage(SQLiteStore(fileURL: newer, localStorageOptions: .recreateStoreOnModelMismatch))
        #expect(try M.query(newer, "SELECT value FROM strata_metadata WHERE key = 'version'") == [[.text("V1")]])
        #expect(try M.query(newer, "SELECT count(*) FROM Barn") == [[.integer(0)]])
        // A store whose migration fails is never replaced.
        let url = temporaryStoreURL("Farm.sqlite")
        try Self.seedV1(url)
        let before = try M.contents(url)
        let stack = DataStack(M.history([Self.v1, Self.customV2()], current: "V2"))
        await #expect(throws: StrataError.self) {
            try await stack.addStorage(SQLiteStore(fileURL: url, localStorageOptions: .recreateStoreOnModelMismatch))
        }
        #expect(try M.contents(url) == before)
    }

    @Test func aDiskThatFillsDuringTheMigrationLeavesTheStoreAsItWas() throws {
        let url = temporaryStoreURL("Farm.sqlite")
        try Self.seedV1(url)
        let before = try M.contents(url)
        let history = M.history([Self.v1, Self.widerBarn], current: "V2")
        let connection = try SQLiteConnection(path: url.path, readOnly: false)
        // The file may not grow by a page: rebuilding Barn needs several.
        let pages = try StoreOpener.rows(connection, "PRAGMA page_count")[0][0]
        try connection.execute("PRAGMA max_page_count = \(pages)")
        let plans = try MigrationRunner.plans(["V1", "V2"], history: history, configuration: "Default", file: url.path)
        #expect {
            try MigrationRunner(connection: connection, history: history, file: url.path, progress: nil).run(plans)
        } throws: { error in
            "\(error)" == "migrating '\(url.path)' from 'V1' to 'V2' failed, and the store was left as it was: "
                + StrataError.storeFull(file: url.path).description
        }
        #expect(try M.contents(url) == before)
    }

    @Test func aStoreWhoseWriteLockIsHeldElsewhereIsNotTouched() async throws {
        let url = temporaryStoreURL("Farm.sqlite")
        try Self.seedV1(url)
        let holder = try SQLiteConnection(path: url.path, readOnly: false, busyTimeoutMilliseconds: 0)
        try holder.execute("BEGIN IMMEDIATE")
        let history = M.history([Self.v1, Self.widerBarn], current: "V2")
        let connection = try SQLiteConnection(path: url.path, readOnly: false, busyTimeoutMilliseconds: 0)
        let plans = try MigrationRunner.plans(["V1", "V2"], history: history, configuration: "Default", file: url.path)
        #expect(throws: StrataError.migrationFailed(file: url.path, from: "V1", to: "V2", reason: "the store's write lock is held by another "
                                                    + "connection or process")) {
            try MigrationRunner(connection: connection, history: history, file: url.path, progress: nil).run(plans)
        }
        try holder.execute("ROLLBACK")
        #expect(try M.query(url, "SELECT value FROM strata_metadata WHERE key = 'version'") == [[.text("V1")]])
    }

    @Test func aTruncatedStoreIsNamedAndLeftAlone() async throws {
        let url = temporaryStoreURL("Farm.sqlite")
        try Self.seedV1(url)
        _ = try M.query(url, "PRAGMA wal_checkpoint(TRUNCATE)")
        var bytes = try Data(contentsOf: url)
        bytes = bytes.prefix(bytes.count / 2)
        try bytes.write(to: url)
        let stack = DataStack(M.history([Self.v1, Self.widerBarn], current: "V2"))
        await #expect {
            try await stack.addStorage(SQLiteStore(fileURL: url))
        } throws: { error in
            guard case StrataError.notAStore(let file, let reason) = error else { return false }
            return file == url.path && reason == "the file is damaged (database disk image is malformed)"
        }
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test func aStoreOfAnotherModelIsRefusedUntouched() async throws {
        let url = temporaryStoreURL("Farm.sqlite")
        try DataStack(Zoo.schemaHistory).addStorageAndWait(SQLiteStore(fileURL: url))
        let before = try M.contents(url)
        await #expect(throws: StrataError.differentModel(file: url.path, storeModel: "Zoo", expectedModel: "Farm")) {
            try await DataStack(M.history([Self.v1, Self.widerBarn], current: "V2")).addStorage(SQLiteStore(fileURL: url))
        }
        #expect(try M.contents(url) == before)
    }
}

/// Progress values collected from the writer queue.
private final class ProgressLog: Sendable {
    private let log = Mutex<[MigrationProgress]>([])
    func append(_ value: MigrationProgress) { log.withLock { $0.append(value) } }
    var values: [MigrationProgress] { log.withLock { $0 } }
}
