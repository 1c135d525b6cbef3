import ArgumentParser
import Foundation
import StrataSchema

/// `strata init NAME [--directory DIR]`
struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Creates a model folder to start from: model.yml and a first version with one entity.",
        discussion: """
        The files start with a line that points editors with YAML language support at the JSON Schemas, which it \
        writes into NAME/.strata.

        Examples:
          strata init PetStore --directory Sources/App/Models

        Exit status: 0 when created, 2 when the name is not valid or the folder already exists.
        """
    )

    @Argument(help: "The model's name, such as PetStore.")
    var name: String

    @Option(help: "Where to create the model folder (default: the current folder).", completion: .directory)
    var directory: String = "."

    @OptionGroup var common: CommonOptions

    func run() throws {
        guard ModelNames.isValid(name) else {
            Output.error("error: '\(name)' is not a valid model name; \(ModelNames.rule)\n")
            throw ExitCode(2)
        }
        let folder = (directory as NSString).appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: folder) {
            Output.error("error: \(folder) already exists; nothing was written\n")
            throw ExitCode(2)
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try ModelJSONSchemas.write(into: folder + "/" + ModelJSONSchemas.folder)
        try Data((ModelJSONSchemas.modeline(for: ModelJSONSchemas.manifestFile) + "\n" + Self.manifest(name)).utf8)
            .write(to: URL(fileURLWithPath: folder + "/model.yml"))
        try Data((ModelJSONSchemas.modeline(for: ModelJSONSchemas.versionFile) + "\n" + Self.firstVersion).utf8)
            .write(to: URL(fileURLWithPath: folder + "/V1.yml"))
        if common.quiet { return }
        Output.out("""
        created \(folder)/model.yml and \(folder)/V1.yml
        next: edit V1.yml, run 'strata verify \(folder)', and 'strata lock \(folder)' before you ship V1

        """)
    }

    static func manifest(_ name: String) -> String {
        """
        # The \(name) model. Add a version file for each release and list it here, oldest first.
        model: \(name)
        migrationChain: [V1]

        """
    }

    static let firstVersion = """
        # Once this version ships, seal it with `strata lock` and never change it: start the next with `strata new-version`.
        version: V1
        entities:
          Item:
            attributes:
              name: {type: String, default: ""}
              createdAt: {type: Date, initial: now}
              notes: {type: String, optional: true}

        """
}
