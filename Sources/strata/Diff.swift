import ArgumentParser
import StrataSchema

/// `strata diff DIR FROM TO`
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Prints the migration plan between two versions, each step lightweight or heavyweight.",
        discussion: "Exit status: 0 when printed, 2 when the model has errors or a version is unknown."
    )

    @Argument(help: "The model folder.")
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
        let names = model.versions.map(\.name)
        var missing: [String] = []
        for name in [from, to] where model.version(named: name) == nil {
            missing.append("error: the model has no version '\(name)'; it has \(names.joined(separator: ", "))\n")
        }
        guard missing.isEmpty, let old = model.version(named: from), let new = model.version(named: to) else {
            Output.error(missing.joined())
            throw ExitCode(2)
        }
        let plan = VersionDiff.plan(model: model, from: old, to: new)
        switch format {
        case .text: Output.out(plan.text)
        case .json: Output.out(try Output.json(plan))
        }
    }
}
