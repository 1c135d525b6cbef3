import ArgumentParser
import Foundation
import StrataSchema

/// `strata schema DIR`
struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Writes the JSON Schemas of model.yml and version files, for editors with YAML language support.",
        discussion: """
        Writes strata-model.schema.json and strata-version.schema.json into the folder. Point a file at one with a first \
        line such as '# yaml-language-server: $schema=.strata/strata-version.schema.json' (strata init and strata convert \
        write both the schemas, into the model folder's .strata folder, and these lines).

        Examples:
          strata schema Sources/App/Models/PetStore/.strata

        Exit status: 0 when written, 2 when the folder cannot be written.
        """
    )

    @Argument(help: "The folder to write the two schema files into (created when missing).", completion: .directory)
    var directory: String

    func run() throws {
        do {
            try ModelJSONSchemas.write(into: directory)
        } catch {
            Output.error("error: cannot write the schemas into \(directory): \(error.localizedDescription)\n")
            throw ExitCode(2)
        }
    }
}
