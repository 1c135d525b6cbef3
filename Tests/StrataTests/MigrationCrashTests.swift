import Foundation
import StrataTestSupport
import Testing

/// A migration killed with SIGKILL at a random moment leaves the store whole at its old version,
/// and the next open migrates it. Each round copies a seeded store, starts `strata-crash-child
/// migrate` on it, kills it, and checks what is left. `STRATA_CRASH_ROUNDS` sets the number of
/// rounds (`Scripts/crash-test.sh` runs hundreds).
@Suite("Migrations killed midway")
struct MigrationCrashTests {
    static let cows = 60_000
    static let rounds = CrashChild.rounds(default: 8)

    /// Where the children's standard error goes, for the failure messages.
    private let errors = TestFolders.url("strata-crash-errors")

    private func run(_ arguments: [String]) async throws -> String { try await CrashChild.run(arguments, errors: errors) }
    private func launch(_ arguments: [String]) throws -> (process: Process, output: Pipe) { try CrashChild.launch(arguments, errors: errors) }

    /// What the children wrote to standard error so far.
    private var childErrors: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

    @Test func aKilledMigrationLeavesTheOldVersionWholeAndMigratesNextTime() async throws {
        try await HeavyTests.oneAtATime {
            let folder = TestFolders.url("strata-crash")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let pristine = folder.appendingPathComponent("pristine.sqlite")
            _ = try await run(["seed", pristine.path, String(Self.cows)])
            #expect(try await run(["check", pristine.path]) == "V1 \(Self.cows) \(Self.cows) ok")
            // How long a whole migration takes here, so kills land before, during and after it.
            let timing = folder.appendingPathComponent("timing.sqlite")
            try FileManager.default.copyItem(at: pristine, to: timing)
            let start = Date()
            #expect(try await run(["migrate", timing.path]) == "migrated")
            let duration = max(Date().timeIntervalSince(start), 0.05)
            let migrated = Self.cows - Self.cows / 10
            var generator = SystemRandomNumberGenerator()
            var killedMidway = 0
            for round in 0..<Self.rounds {
                let store = folder.appendingPathComponent("round-\(round).sqlite")
                try FileManager.default.copyItem(at: pristine, to: store)
                let child = try launch(["migrate", store.path])
                try await Task.sleep(for: .seconds(Double.random(in: 0...(duration * 1.2), using: &generator)))
                await CrashChild.kill(child)
                let state = try await run(["check", store.path])
                #expect(state == "V1 \(Self.cows) \(Self.cows) ok" || state == "V3 \(migrated) \(migrated) ok", "round \(round): \(state)")
                if state.hasPrefix("V1") { killedMidway += 1 }
                #expect(try await run(["migrate", store.path]) == "migrated", "round \(round): \(childErrors)")
                #expect(try await run(["check", store.path]) == "V3 \(migrated) \(migrated) ok", "round \(round) after migrating again")
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store.path + suffix) }
            }
            print("MigrationCrashTests: \(Self.rounds) rounds, \(killedMidway) killed before the migration committed, migration \(Int(duration * 1000)) ms")
        }
    }
}

