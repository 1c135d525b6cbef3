import ArgumentParser
import Foundation
import StrataCodegen
import StrataSchema

/// `strata openapi DIR [--version V] [--dates FORMAT] [--output FILE]`
struct OpenAPI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Writes an OpenAPI 3.1 document of a model version's components: each entity's snapshot and patch schemas.",
        discussion: """
            For each entity, the schema of its generated snapshot (named as the entity) and of Patch<Entity> (the entity's \
            name with Patch), with the model's doc: texts as descriptions. Each schema accepts exactly what the runtime's \
            decoders accept. Dates are described as the app's JSONEncoder writes them: --dates iso8601 (the default, \
            .iso8601), seconds-since-1970, milliseconds-since-1970, or deferred (Foundation's default, seconds since 2001). \
            An API adds its own paths that refer to the components ("$ref": "#/components/schemas/Dog").

            Examples:
              strata openapi Models/PetStore                          the current version, to standard output
              strata openapi Models/PetStore --version V1 --output openapi-v1.json

            Exit status: 0 when written, 2 when the model has errors, the version is unknown, or the file cannot be written.
            """
    )

    @Argument(help: "The model folder.", completion: .directory)
    var directory: String

    @Option(name: .customLong("version"), help: "The version (default: the current one).")
    var version: String?

    @Option(name: .customLong("dates"), help: "How the API writes dates: iso8601, seconds-since-1970, milliseconds-since-1970 or deferred.")
    var dates: OpenAPIDateFormat = .iso8601

    @Option(name: .customLong("output"), help: "The file to write, its folder created when missing (default: standard output).",
            completion: .file())
    var output: String?

    func run() throws {
        let loaded = ModelLoader.load(directory: directory)
        guard loaded.isValid, let model = loaded.model else {
            Output.error(loaded.diagnostics.map { "\($0)\n" }.joined())
            throw ExitCode(2)
        }
        guard let chosen = version.map({ model.version(named: $0) }) ?? model.currentVersion else {
            Output.error(Output.unknownVersion(version ?? "", in: model))
            throw ExitCode(2)
        }
        let text = OpenAPIDocument(model: model, version: chosen, dates: dates).text
        guard let output else {
            Output.out(text)
            return
        }
        do {
            let url = URL(fileURLWithPath: output)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            Output.error("error: cannot write \(output): \(error.localizedDescription)\n")
            throw ExitCode(2)
        }
    }
}

extension OpenAPIDateFormat: ExpressibleByArgument {}
