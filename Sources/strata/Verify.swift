import ArgumentParser
import StrataSchema

/// `strata verify DIR...`
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Checks that every version is valid, sealed, and unchanged since it was sealed.",
        discussion: """
        Examples:
          strata verify Sources/App/Models/PetStore
          strata verify Models/* --format json
          strata verify Models/PetStore --sync-compatible V2   can a sync server at the newest version serve devices at V2 and later?

        Exit status: 0 when every version matches its lock (and, with --sync-compatible, a server at the current version \
        serves devices at every version from FROM on), 1 when a lock is missing or differs (or a version from FROM on cannot \
        sync), 2 when a model has errors or has no version FROM on its chain.
        """
    )

    @Argument(help: "Model folders, each holding model.yml and one file per version.", completion: .directory)
    var directories: [String]

    @Option(help: "text for people, json for machines.")
    var format: OutputFormat = .text

    @Option(help: ArgumentHelp("The command the hints name to seal a version (the strata-verify command plugin names strata-lock).",
                               visibility: .hidden))
    var sealCommand: String?

    @Option(name: .customLong("sync-compatible"), help: ArgumentHelp(
        "Also check that a sync server at the current version can serve devices at this version and every later one.",
        valueName: "FROM"))
    var syncCompatible: String?

    @OptionGroup var common: CommonOptions

    private struct JSONReport: Encodable {
        var exitCode: Int32
        var models: [VerifyReport]
        var syncCompatibility: [SyncCompatibility]?
    }

    func run() throws {
        let loadedModels = directories.map { ModelLoader.load(directory: $0) }
        let reports = loadedModels.map { VerifyReport(loaded: $0) }
        var exitCode = reports.map(\.exitCode).max() ?? 0
        var compatibility: [SyncCompatibility] = []
        var problems = ""
        if let from = syncCompatible {
            for loaded in loadedModels {
                guard loaded.isValid, let model = loaded.model else { continue }   // its report says why
                guard let verdicts = SyncCompatibility(model: model, from: from) else {
                    problems += "error: \(model.manifest.name) has no version '\(from)' on its migration chain to its current version; "
                        + "it has \(model.versions.map(\.name).joined(separator: ", "))\n"
                    exitCode = max(exitCode, 2)
                    continue
                }
                compatibility.append(verdicts)
                if !verdicts.allCompatible { exitCode = max(exitCode, 1) }
            }
        }
        switch format {
        case .text:
            // Quiet: only the reports that found something.
            Output.out(reports.filter { !common.quiet || $0.exitCode != 0 }.map { $0.text(sealCommand: sealCommand) }.joined()
                       + compatibility.filter { !common.quiet || !$0.allCompatible }.map(\.text).joined())
        case .json:
            Output.out(try Output.json(JSONReport(exitCode: exitCode, models: reports, syncCompatibility: syncCompatible == nil ? nil : compatibility)))
        }
        if !problems.isEmpty { Output.error(problems) }
        if exitCode != 0 { throw ExitCode(exitCode) }
    }
}
