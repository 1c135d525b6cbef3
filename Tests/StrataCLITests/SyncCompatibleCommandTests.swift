import Foundation
import StrataTestSupport
import Testing

/// `strata verify --sync-compatible FROM`: which older versions a sync server at the newest one
/// can still serve, why not the others, and the exit codes CI acts on.
@Suite("strata verify --sync-compatible")
struct SyncCompatibleCommandTests {
    /// The Kennel fixture at V2 (V1 → V2 renames, widens, adds), as the sync tests use it.
    static let kennel = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("KennelV2Device/Models/Kennel").path

    /// A copy of the Kennel model with a V3 whose Toy comes from a custom step, sealed.
    static func kennelWithCustomStep() throws -> String {
        let folder = TestFolders.url("kennel-v3").path
        try FileManager.default.copyItem(atPath: kennel, toPath: folder)
        let v2 = try String(contentsOfFile: folder + "/V2.yml", encoding: .utf8)
        var v3 = String(v2[..<v2.range(of: "migration:")!.lowerBound]).replacingOccurrences(of: "version: V2", with: "version: V3")
        v3 += "migration:\n  from: V2\n  entities:\n    Toy: {transform: custom}\n"
        try v3.write(toFile: folder + "/V3.yml", atomically: true, encoding: .utf8)
        try "model: Kennel\nmigrationChain: [V1, V2, V3]\n".write(toFile: folder + "/model.yml", atomically: true, encoding: .utf8)
        let lock = try runStrata(["lock", folder])
        #expect(lock.status == 0, "\(lock.err)")
        return folder
    }

    @Test func translatableVersionsPass() throws {
        let run = try runStrata(["verify", Self.kennel, "--sync-compatible", "V1"])
        #expect(run.status == 0)
        #expect(run.out == "Kennel: 2 versions, 2 sealed; verified\nKennel: a server at V2 syncs with devices at V1\n  V1: translated\n")
    }

    @Test func aCustomStepCutsOffTheVersionsBeforeIt() throws {
        let folder = try Self.kennelWithCustomStep()
        let run = try runStrata(["verify", folder, "--sync-compatible", "V1"])
        #expect(run.status == 1)
        #expect(run.out == """
            Kennel: 3 versions, 3 sealed; verified
            Kennel: a server at V3 cannot sync with devices at V1, V2
              V1: refused: the step V2 → V3 makes Toy with a custom migration step, which cannot be translated back for devices at V2; they must update the app
              V2: refused: the step V2 → V3 makes Toy with a custom migration step, which cannot be translated back for devices at V2; they must update the app

            """)
        let json = try runStrata(["verify", folder, "--sync-compatible", "V2", "--format", "json"])
        #expect(json.status == 1)
        #expect(json.out.contains("\"compatible\" : false"))
        #expect(json.out.contains("\"exitCode\" : 1"))
    }

    @Test func aVersionNotOnTheChainIsAnError() throws {
        let run = try runStrata(["verify", Self.kennel, "--sync-compatible", "V7"])
        #expect(run.status == 2)
        #expect(run.err == "error: Kennel has no version 'V7' on its migration chain to its current version; it has V1, V2\n")
    }

    @Test func theCurrentVersionHasNothingOlderToCheck() throws {
        let run = try runStrata(["verify", Self.kennel, "--sync-compatible", "V2"])
        #expect(run.status == 0)
        #expect(run.out.hasSuffix("Kennel: V2 is the current version; no older version to check\n"))
    }
}
