import ArgumentParser
import Foundation
import StrataSchema

/// The `strata` command: a thin shell over StrataSchema.
@main
struct StrataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata",
        abstract: "Checks, seals and compares Strata models: YAML files, one per model version.",
        discussion: "strata --version prints the tool's version.",
        subcommands: [Verify.self, Lock.self, Diff.self, Generate.self, SQL.self, Init.self, Convert.self, Graph.self, Schema.self, OpenAPI.self,
                      NewVersion.self]
    )

    /// Parses and runs, first turning a misspelt subcommand (`strata verfy x`) into an error that
    /// names the closest one instead of ArgumentParser's "unexpected arguments".
    ///
    /// `strata --version` is answered here rather than by ArgumentParser's version flag, which
    /// every subcommand's help would list beside the model `--version` of `lock` and `sql`.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--version"] {
            Output.out(StrataVersion.current + "\n")
            return
        }
        if let first = arguments.first, !first.hasPrefix("-") {
            let names = configuration.subcommands.compactMap { $0.configuration.commandName ?? $0._commandName } + ["help"]
            if !names.contains(first) {
                let hint = Suggestion.closest(to: first, in: names).map { "; did you mean '\($0)'?" } ?? ""
                Output.error("error: unknown command '\(first)'\(hint)\nthe commands: \(names.dropLast().joined(separator: ", ")) (strata help)\n")
                Self.exit(withError: ExitCode.validationFailure)
            }
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}

/// The version of this tool; it never enters a lock.
enum StrataVersion {
    static let current = "0.1.0"
}

/// Output for people or for machines.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}
