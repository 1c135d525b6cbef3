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

        Exit status: 0 when every version matches its lock, 1 when a lock is missing or differs, 2 when a model has errors.
        """
    )

    @Argument(help: "Model folders, each holding model.yml and one file per version.", completion: .directory)
    var directories: [String]

    @Option(help: "text for people, json for machines.")
    var format: OutputFormat = .text

    @Option(help: ArgumentHelp("The command the hints name to seal a version (the strata-verify command plugin names strata-lock).",
                               visibility: .hidden))
    var sealCommand: String?

    @OptionGroup var common: CommonOptions

    private struct JSONReport: Encodable {
        var exitCode: Int32
        var models: [VerifyReport]
    }

    func run() throws {
        let reports = directories.map { VerifyReport(directory: $0) }
        let exitCode = reports.map(\.exitCode).max() ?? 0
        switch format {
        case .text:
            // Quiet: only the reports that found something.
            Output.out(reports.filter { !common.quiet || $0.exitCode != 0 }.map { $0.text(sealCommand: sealCommand) }.joined())
        case .json: Output.out(try Output.json(JSONReport(exitCode: exitCode, models: reports)))
        }
        if exitCode != 0 { throw ExitCode(exitCode) }
    }
}
