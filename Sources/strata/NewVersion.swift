import ArgumentParser
import StrataSchema

/// `strata new-version DIR [NAME]`
struct NewVersion: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-version",
        abstract: "Starts the next model version: a copy of the current one, without its lock, at the end of the chain.",
        discussion: """
        Copies the current version's file to NAME.yml with 'version: NAME', leaves out its versionLock and migration \
        blocks (the new step is inferred until you describe it), and appends NAME to migrationChain in model.yml. \
        Every other byte of both files is kept. Edit the new file, then seal it with 'strata lock' before it ships.

        Examples:
          strata new-version Sources/App/Models/PetStore            V3 → V4
          strata new-version Sources/App/Models/PetStore Summer     a name of your own

        Exit status: 0 when written, 2 when the model has errors, the name is taken or invalid, or a file cannot be edited.
        """
    )

    @Argument(help: "The model folder.", completion: .directory)
    var directory: String

    @Argument(help: "The new version's name (default: the current name with its number increased).")
    var name: String?

    @OptionGroup var common: CommonOptions

    func run() throws {
        let loaded = ModelLoader.load(directory: directory)
        if !loaded.diagnostics.isEmpty {
            Output.error(loaded.diagnostics.map { "\($0)\n" }.joined())
        }
        switch VersionStarter.plan(loaded, name: name) {
        case .failure(let failure):
            Output.error(failure.message + "\n")
            throw ExitCode(2)
        case .success(let plan):
            try VersionStarter.apply(plan)
            if !common.quiet {
                Output.out("created \(plan.versionFile) and added \(plan.version) to migrationChain in \(plan.manifestFile)\n")
            }
        }
    }
}
