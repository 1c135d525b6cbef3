import Foundation
import StrataTestSupport
import Strata
import StrataTesting
import Synchronization
import Testing

/// A store written by the first release, seeded from plain values, opened by the current one.
@Suite("Migrations end to end")
@MainActor
struct MigrationEndToEndTests {
    static func seedFirstRelease() throws -> URL {
        let url = TestFolders.url("strata-farm").appendingPathComponent("Farm.sqlite")
        try StoreSeeding.seedStore(at: url, history: Farm.schemaHistory, version: "V1", objects: firstRelease)
        return url
    }

    /// The first release's objects.
    static let firstRelease = [
        SeedObject("Barn", id: 1, ["name": "North", "size": Int32(40)]),
        SeedObject("Barn", id: 2, ["name": "South"]),
        SeedObject("Cow", id: 1, ["name": "Daisy", "weight": 512.5], relationships: ["barn": [1], "tags": [1, 2]]),
        SeedObject("Cow", id: 2, ["name": "Ghost", "weight": 0.0], relationships: ["barn": [1], "tags": [1]]),
        SeedObject("Cow", id: 3, ["name": "Molly", "weight": 530.25], relationships: ["barn": [2]]),
        SeedObject("Tag", id: 1, ["label": "calm"]),
        SeedObject("Tag", id: 2, ["label": "prize"]),
        SeedObject("Silo", id: 1, ["capacity": Int64(900)]),
    ]

    @Test func theFirstReleasesStoreOpensInTheCurrentOne() async throws {
        let url = try Self.seedFirstRelease()
        let stack = DataStack(Farm.schemaHistory)
        #expect(try stack.requiredMigrations(for: SQLiteStore(fileURL: url)) == [
            .lightweight(sourceVersion: "V1", destinationVersion: "V2"), .heavyweight(sourceVersion: "V2", destinationVersion: "V3"),
        ])
        let steps = Mutex<[String]>([])
        try await stack.addStorage(SQLiteStore(fileURL: url)) { progress in
            steps.withLock { $0.append(progress.isFinished ? "done" : "\(progress.sourceVersion)→\(progress.destinationVersion)") }
        }
        #expect(steps.withLock { $0 } == ["V1→V2", "V2→V3", "done"])
        try await Self.expectTheCurrentRelease(stack)
        #expect(try stack.requiredMigrations(for: SQLiteStore(fileURL: url)) == [])
    }

    /// What the first release's objects are after the migration to the current version; then a
    /// new object takes an id past the old ones. Shared with the PostgreSQL suite.
    static func expectTheCurrentRelease(_ stack: DataStack) async throws {
        let barns = try stack.fetchAll(From<Barn>().orderBy(.ascending(\.title)))
        #expect(barns.map(\.title) == ["North", "South"])
        #expect(barns.map(\.size) == [40, nil])
        #expect(barns.allSatisfy { $0.painted })
        let cows = try stack.fetchAll(From<Cow>().orderBy(.ascending(\.name)))
        #expect(cows.map(\.name) == ["DAISY", "MOLLY"])
        #expect(cows.map(\.grams) == [512_500, 530_250])
        #expect(cows.map { $0.barn?.title } == ["North", "South"])
        #expect(Set(cows[0].tags.map(\.label)) == ["calm", "prize"])
        let calm = try #require(try stack.fetchOne(From<Tag>().where(\.label == "calm")))
        #expect(calm.cows.map(\.name) == ["DAISY"])
        #expect(barns[0].cows.map(\.name) == ["DAISY"])
        #expect(try stack.fetchCount(From<Field>()) == 0)

        // The migrated store takes new objects, with ids past the old ones.
        try await stack.perform { transaction in
            let cow = transaction.create(Into<Cow>())
            cow.name = "NEW"
            cow.barn = try transaction.fetchOne(From<Barn>().where(\.title == "South"))
        }
        #expect(try stack.fetchCount(From<Cow>().where(\.barn?.title == "South")) == 2)
    }

    @Test func addStorageAndWaitLeavesACustomStepToAddStorage() throws {
        let url = try Self.seedFirstRelease()
        #expect(throws: StrataError.migrationRequired(file: url.path, storeVersion: "V1", currentVersion: "V3")) {
            try DataStack(Farm.schemaHistory).addStorageAndWait(SQLiteStore(fileURL: url, localStorageOptions: .allowSynchronousLightweightMigration))
        }
    }

    @Test func seedingRefusesWhatTheVersionDoesNotHave() throws {
        let url = TestFolders.url("strata-farm").appendingPathComponent("Farm.sqlite")
        #expect(throws: StrataError.invalidQuery("'Barn' has no property 'title' in this version")) {
            try StoreSeeding.seedStore(at: url, history: Farm.schemaHistory, version: "V1", objects: [SeedObject("Barn", id: 1, ["title": "North"])])
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(throws: StrataError.invalidQuery("Farm has no version 'V9'; it has V1, V2, V3")) {
            try StoreSeeding.seedStore(at: url, history: Farm.schemaHistory, version: "V9", objects: [])
        }
    }
}

/// `strata sql --from --to` prints the plan the runtime makes from the generated descriptors.
@Suite("Migration SQL agrees with the runtime")
struct MigrationSQLAgreementTests {
    static let executable: URL? = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while folder.path != "/" {
            for name in ["strata", "strata-tool"] where FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent(name).path) {
                return folder.appendingPathComponent(name)
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }()

    @Test func theCommandPrintsTheStepsTheRuntimeRuns() throws {
        let executable = try #require(Self.executable, "the strata tool is built beside the tests")
        let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Models/Farm").path
        let process = Process()
        process.executableURL = executable
        process.arguments = ["sql", model, "--from", "V1", "--to", "V3"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        var expected = ""
        for (from, to) in [("V1", "V2"), ("V2", "V3")] {
            let source = try #require(Farm.schemaHistory.version(named: from))
            let destination = try #require(Farm.schemaHistory.version(named: to))
            let plan = try MigrationPlanner(from: source, to: destination).plan()
            expected += "-- Farm \(from) → \(to) (\(plan.isCustom ? "heavyweight" : "lightweight"))\n" + plan.sqlText
        }
        #expect(printed == expected)
    }
}
