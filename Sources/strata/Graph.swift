import ArgumentParser
import StrataSchema

/// `strata graph DIR [VERSION] [--format mermaid|dot] [--diff V1 V2]`
struct Graph: ParsableCommand {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case mermaid
        case dot
    }

    static let configuration = CommandConfiguration(
        abstract: "Prints a model version as a diagram: a Mermaid erDiagram, or Graphviz DOT.",
        discussion: """
        Entities are boxes of attributes (UK marks unique ones), relationships are lines with crow's feet, \
        subentities point at their parents. With --diff, the diagram is the newer version with what the step \
        adds, removes, renames and changes marked.

        Examples:
          strata graph Models/PetStore                 the current version, as Mermaid
          strata graph Models/PetStore V1 --format dot | dot -Tsvg > V1.svg
          strata graph Models/PetStore --diff V2 V3    what V3 changes

        Exit status: 0 when printed, 2 when the model has errors, a version is unknown, or the arguments conflict.
        """
    )

    @Argument(help: "The model folder.", completion: .directory)
    var directory: String

    @Argument(help: "The version to draw (default: the current one).")
    var version: String?

    @Option(help: "mermaid (renders in GitHub and most Markdown viewers) or dot (Graphviz).")
    var format: Format = .mermaid

    @Option(parsing: .upToNextOption, help: "Two versions: draw the step from the first to the second.")
    var diff: [String] = []

    func run() throws {
        let loaded = ModelLoader.load(directory: directory)
        guard loaded.isValid, let model = loaded.model else {
            Output.error(loaded.diagnostics.map { "\($0)\n" }.joined())
            throw ExitCode(2)
        }
        let graph: ModelGraph
        if diff.isEmpty {
            guard let chosen = version.map({ model.version(named: $0) }) ?? model.currentVersion else {
                Output.error(Output.unknownVersion(version ?? "", in: model))
                throw ExitCode(2)
            }
            graph = ModelGraph(model: model, version: chosen)
        } else {
            guard diff.count == 2, version == nil else {
                Output.error("error: --diff takes two versions, and no version argument beside them\n")
                throw ExitCode(2)
            }
            let missing = diff.filter { model.version(named: $0) == nil }
            guard missing.isEmpty, let old = model.version(named: diff[0]), let new = model.version(named: diff[1]) else {
                Output.error(missing.map { Output.unknownVersion($0, in: model) }.joined())
                throw ExitCode(2)
            }
            graph = ModelGraph(model: model, from: old, to: new)
        }
        Output.out(format == .mermaid ? MermaidDiagram.render(graph) : DotDiagram.render(graph))
    }
}
