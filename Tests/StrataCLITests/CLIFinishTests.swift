import Foundation
import StrataTestSupport
import StrataSchema
import Testing

/// The command line's fit and finish: --version, completion scripts, --quiet, generate --check.
@Suite("strata fit and finish")
struct CLIFinishTests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/PetStore/Sources/PetStore/Models/PetStore").path

    private func temporaryFolder() -> String {
        TestFolders.url("strata-finish").path
    }

    @Test func versionHelpAndCompletionScripts() throws {
        let version = try runStrata(["--version"])
        #expect(version.status == 0 && version.out == "0.1.0\n")
        for shell in ["bash", "zsh", "fish"] {
            let script = try runStrata(["--generate-completion-script", shell])
            #expect(script.status == 0 && script.out.contains("convert") && script.out.contains("graph"))
        }
        for command in ["verify", "lock", "diff", "generate", "sql", "init", "convert", "graph"] {
            let help = try runStrata([command, "--help"])
            #expect(help.status == 0 && help.out.contains("Examples:"), "\(command) --help has no examples")
        }
        let usage = try runStrata(["graph"])
        #expect(usage.status == 64 && usage.err.contains("Missing expected argument '<directory>'"))
    }

    @Test func generateCheckSaysWhenCommittedCodeIsStale() throws {
        let output = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: output) }
        let missing = try runStrata(["generate", Self.sample, "--output", output, "--check"])
        #expect(missing.status == 1)
        #expect(missing.err.hasPrefix("error: \(output)/PetStoreEntities1.swift is missing\n"))
        #expect(missing.err.hasSuffix("run 'strata generate \(Self.sample) --output \(output)' and commit the result\n"))
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try runStrata(["generate", Self.sample, "--output", output]).status == 0)
        let fresh = try runStrata(["generate", Self.sample, "--output", output, "--check"])
        #expect(fresh.status == 0 && fresh.out.isEmpty && fresh.err.isEmpty)
        try Data("// edited\n".utf8).write(to: URL(fileURLWithPath: output + "/PetStoreImporters.swift"))
        let stale = try runStrata(["generate", Self.sample, "--output", output, "--check"])
        #expect(stale.status == 1 && stale.err.hasPrefix("error: \(output)/PetStoreImporters.swift is not what the model generates\n"))
        #expect(try String(contentsOfFile: output + "/PetStoreImporters.swift", encoding: .utf8) == "// edited\n")
    }

    @Test func quietPrintsOnlyWhatIsWrong() throws {
        let verify = try runStrata(["verify", Self.sample, "--quiet"])
        #expect(verify.status == 0 && verify.out.isEmpty)
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let created = try runStrata(["init", "Notes", "--directory", folder, "-q"])
        #expect(created.status == 0 && created.out.isEmpty)
        let locked = try runStrata(["lock", folder + "/Notes", "--quiet"])
        #expect(locked.status == 0 && locked.out.isEmpty)
        let loud = try runStrata(["lock", folder + "/Notes"])
        #expect(loud.out == "V1: already sealed (\(folder)/Notes/V1.yml)\n")
    }

    @Test func terminalsSeeSeverityInColour() {
        #expect(DiagnosticText.colored("a.yml:1:2: error: bad\nwarning: odd\nplain") ==
                "a.yml:1:2: \u{1B}[1;31merror:\u{1B}[0m bad\n\u{1B}[1;33mwarning:\u{1B}[0m odd\nplain")
    }
}
