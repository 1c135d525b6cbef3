import Strata
import ArgumentParser
import StrataSchema

/// `strata sql DIR [--version V]`
struct SQL: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Prints the SQL the runtime creates a store of a model version with.",
        discussion: "Exit status: 0 when printed, 2 when the model has errors or the version is unknown."
    )

    @Argument(help: "The model folder.")
    var directory: String

    @Option(name: .customLong("version"), help: "The version (default: the current one).")
    var version: String?

    func run() throws {
        let loaded = ModelLoader.load(directory: directory)
        guard loaded.isValid, let model = loaded.model else {
            Output.error(loaded.diagnostics.map { "\($0)\n" }.joined())
            throw ExitCode(2)
        }
        guard let chosen = version.map({ model.version(named: $0) }) ?? model.currentVersion else {
            Output.error("error: the model has no version '\(version ?? "")'; it has \(model.versions.map(\.name).joined(separator: ", "))\n")
            throw ExitCode(2)
        }
        let statements = StoreSchemaSQL.statements(for: RuntimeDescriptors.modelVersion(chosen))
        Output.out("-- \(model.manifest.name) \(chosen.name)\n" + statements.map { $0 + ";\n" }.joined())
    }
}
