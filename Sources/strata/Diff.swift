import ArgumentParser
import Strata
import StrataSchema

/// `strata diff DIR FROM TO`
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Prints the migration plan between two versions, each step lightweight or heavyweight.",
        discussion: """
        Examples:
          strata diff Models/PetStore V2 V3
          strata diff Models/PetStore V2 V3 --format json

        Exit status: 0 when printed, 2 when the model has errors or a version is unknown.
        """
    )

    @Argument(help: "The model folder.", completion: .directory)
    var directory: String

    @Argument(help: "The older version.")
    var from: String

    @Argument(help: "The newer version.")
    var to: String

    @Option(help: "text for people, json for machines.")
    var format: OutputFormat = .text

    func run() throws {
        let loaded = ModelLoader.load(directory: directory)
        guard loaded.isValid, let model = loaded.model else {
            Output.error(loaded.diagnostics.map { "\($0)\n" }.joined())
            throw ExitCode(2)
        }
        var missing: [String] = []
        for name in [from, to] where model.version(named: name) == nil {
            missing.append(Output.unknownVersion(name, in: model))
        }
        guard missing.isEmpty, let old = model.version(named: from), let new = model.version(named: to) else {
            Output.error(missing.joined())
            throw ExitCode(2)
        }
        // A plan is a step forward along the chain, as the runtime migrates: no plan runs backwards.
        if !model.manifest.chain.path(from: from).dropFirst().contains(to) {
            let backwards = model.manifest.chain.path(from: to).contains(from)
            Output.error("error: the migration chain does not lead from \(from) to \(to)"
                         + (backwards ? "; \(to) comes before \(from): strata diff \(directory) \(to) \(from)\n" : "\n"))
            throw ExitCode(2)
        }
        let plan = VersionDiff.plan(model: model, from: old, to: new)
        switch format {
        case .text: Output.out(plan.text + runtimeNotes(model, old: old, new: new))
        case .json: Output.out(try Output.json(plan))
        }
    }

    /// How the runtime runs the step on each storage: which tables change in place, which are
    /// rebuilt, created or dropped (`strata sql --from --to` prints the statements).
    private func runtimeNotes(_ model: Model, old: SchemaVersion, new: SchemaVersion) -> String {
        let source = RuntimeDescriptors.modelVersion(old, in: model)
        let destination = RuntimeDescriptors.modelVersion(new, in: model)
        let configurations = ["Default"] + destination.configurations.keys.sorted().filter { $0 != "Default" }
        var lines: [String] = []
        for configuration in configurations {
            let prefix = configurations.count > 1 ? "[\(configuration)] " : ""
            do {
                let plan = try MigrationPlanner(from: source, to: destination, configuration: configuration).plan()
                lines += plan.notes.map { "    " + prefix + $0 }
            } catch {
                lines.append("    " + prefix + "cannot be inferred: \(error)")
            }
        }
        guard !lines.isEmpty else { return "" }
        return "  how the runtime runs it (strata sql --from \(old.name) --to \(new.name) prints the SQL):\n" + lines.joined(separator: "\n") + "\n"
    }
}
