import ArgumentParser

/// The `strata` command: a thin shell over StrataSchema.
@main
struct StrataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata",
        abstract: "Checks, seals and compares Strata models: YAML files, one per model version.",
        version: StrataVersion.current,
        subcommands: [Verify.self, Lock.self, Diff.self, Generate.self, SQL.self, Init.self, Convert.self, Graph.self, Schema.self]
    )
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
