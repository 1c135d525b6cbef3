import Foundation
import StrataTestSupport
import Testing

/// What a new user meets first on the command line: misspelt commands, one `--version` per help,
/// files given where folders are wanted, starting a version, and questions with no answer.
@Suite("strata for a new user")
struct FirstHourCLITests {
    private func strata(_ arguments: String...) throws -> Run { try runStrata(arguments) }

    /// A sealed two-version model `Pets` (V1, V2) in a fresh folder.
    private func pets(chain: String = "migrationChain: [V1, V2]") throws -> String {
        let dir = TestFolders.url("strata-first").appendingPathComponent("Pets").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data("model: Pets\n\(chain)\n".utf8).write(to: URL(fileURLWithPath: dir + "/model.yml"))
        try Data("version: V1\nentities:\n  Dog:\n    attributes:\n      name: {type: String, default: \"\"}\n".utf8)
            .write(to: URL(fileURLWithPath: dir + "/V1.yml"))
        try Data("version: V2\nentities:\n  Dog:\n    attributes:\n      name: {type: String, default: \"\"}\n      age: {type: Int32, default: 0}\n".utf8)
            .write(to: URL(fileURLWithPath: dir + "/V2.yml"))
        #expect(try strata("lock", dir, "-q").status == 0)
        return dir
    }

    @Test func aMisspeltCommandNamesTheClosestOne() throws {
        let run = try strata("verfy", "x")
        #expect(run.status == 64)
        #expect(run.err == "error: unknown command 'verfy'; did you mean 'verify'?\n"
                + "the commands: verify, lock, diff, generate, sql, init, convert, graph, schema, openapi, new-version (strata help)\n")
    }

    @Test func helpListsOneVersionOptionAndTheToolStillHasItsVersion() throws {
        for command in ["lock", "sql"] {
            let help = try strata(command, "--help").out
            #expect(help.components(separatedBy: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("--version") }.count == 1,
                    "\(command) --help:\n\(help)")
        }
        #expect(try strata("--version").out == "0.1.0\n")
        let dir = try pets()
        #expect(try strata("sql", dir, "--version", "V1").out.hasPrefix("-- Pets V1\n"))
    }

    @Test func aVersionFileGivenForAFolderNamesTheFolder() throws {
        let dir = try pets()
        let run = try strata("verify", dir + "/V1.yml")
        #expect(run.status == 2)
        #expect(run.out.hasPrefix("\(dir)/V1.yml:1:1: error: this is a file of the model folder '\(dir)'; name the folder instead\n"))
    }

    @Test func migratingFromTheCurrentVersionSaysThereIsNothingToDo() throws {
        let dir = try pets()
        let run = try strata("sql", dir, "--from", "V2")
        #expect(run.status == 0 && run.out == "")
        #expect(run.err == "nothing to migrate: V2 is the current version; name an older version with --from\n")
    }

    @Test func aDiffBackwardsIsRefused() throws {
        let dir = try pets()
        let run = try strata("diff", dir, "V2", "V1")
        #expect(run.status == 2 && run.out == "")
        #expect(run.err == "error: the migration chain does not lead from V2 to V1; V1 comes before V2: strata diff \(dir) V1 V2\n")
    }

    @Test func completionCompletesModelFolders() throws {
        let script = try strata("--generate-completion-script", "bash").out
        let verify = script.components(separatedBy: "_strata_verify()").dropFirst().first ?? ""
        #expect(verify.prefix(800).contains("__strata_add_completions -d"))
    }

    @Test func newVersionCopiesTheCurrentOneWithoutItsLockAndExtendsTheChain() throws {
        let dir = try pets()
        let run = try strata("new-version", dir)
        #expect(run.status == 0)
        #expect(run.out == "created \(dir)/V3.yml and added V3 to migrationChain in \(dir)/model.yml\n")
        #expect(try String(contentsOfFile: dir + "/model.yml", encoding: .utf8) == "model: Pets\nmigrationChain: [V1, V2, V3]\n")
        let v3 = try String(contentsOfFile: dir + "/V3.yml", encoding: .utf8)
        #expect(v3 == "version: V3\nentities:\n  Dog:\n    attributes:\n      name: {type: String, default: \"\"}\n      age: {type: Int32, default: 0}\n")
        let verify = try strata("verify", dir)
        #expect(verify.status == 1)
        #expect(verify.out.contains("version 'V3' has no lock"))
    }

    @Test func newVersionKeepsTheChainsOwnForm() throws {
        let block = try pets(chain: "migrationChain:\n  - V1\n  - V2")
        #expect(try strata("new-version", block, "Summer", "-q").status == 0)
        #expect(try String(contentsOfFile: block + "/model.yml", encoding: .utf8) == "model: Pets\nmigrationChain:\n  - V1\n  - V2\n  - Summer\n")
        let tree = try pets(chain: "migrationChain: {V1: V2}")
        #expect(try strata("new-version", tree, "-q").status == 0)
        #expect(try String(contentsOfFile: tree + "/model.yml", encoding: .utf8) == "model: Pets\nmigrationChain: {V1: V2, V2: V3}\n")
        #expect(try strata("verify", tree).out.contains("version 'V3' has no lock"))
    }

    @Test func newVersionRefusesATakenOrInvalidNameAndWritesNothing() throws {
        let dir = try pets()
        let manifest = try Data(contentsOf: URL(fileURLWithPath: dir + "/model.yml"))
        let taken = try strata("new-version", dir, "V1")
        #expect(taken.status == 2 && taken.err == "error: the model already has a version 'V1'\n")
        let invalid = try strata("new-version", dir, "2x")
        #expect(invalid.status == 2)
        #expect(invalid.err == "error: '2x' is not a valid version name; names start with a letter or '_' and go on with letters, digits or '_'\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/model.yml")) == manifest)
        #expect(!FileManager.default.fileExists(atPath: dir + "/V3.yml"))
    }

    /// `pets()` with V3 added to its chain, its file still to write.
    private func petsAwaitingV3() throws -> String {
        let dir = try pets()
        try Data("model: Pets\nmigrationChain: [V1, V2, V3]\n".utf8).write(to: URL(fileURLWithPath: dir + "/model.yml"))
        return dir
    }

    @Test func aCopiedLockIsRecognised() throws {
        let dir = try petsAwaitingV3()
        let v2 = try String(contentsOfFile: dir + "/V2.yml", encoding: .utf8)
        try Data(v2.replacingOccurrences(of: "version: V2", with: "version: V3")
            .replacingOccurrences(of: "      age: {type: Int32, default: 0}\n", with: "      age: {type: Int32, default: 0}\n      weight: {type: Double, default: 0}\n").utf8)
            .write(to: URL(fileURLWithPath: dir + "/V3.yml"))
        let run = try strata("verify", dir)
        #expect(run.status == 1)
        #expect(run.out.contains("error: version 'V3' carries the lock of version 'V2', as a copy of its file does: remove the versionLock "
                                 + "lines of 'V3' to start a new version (strata new-version copies a version without them), and seal it once it ships\n"))
    }

    @Test func theVerifyPluginsHintNamesTheLockPlugin() throws {
        let dir = try petsAwaitingV3()
        try Data("version: V3\nentities: {}\n".utf8).write(to: URL(fileURLWithPath: dir + "/V3.yml"))
        let run = try strata("verify", dir, "--seal-command", "swift package --allow-writing-to-package-directory strata-lock")
        #expect(run.out.contains("error: version 'V3' has no lock; run 'swift package --allow-writing-to-package-directory strata-lock' to seal it\n"))
    }
}
