import ArgumentParser
import StrataSchema

/// `strata lock DIR [--version V] [--force]`
struct Lock: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Seals versions: writes their locks into the version files, changing no other byte.",
        discussion: """
        Also writes sealed/<version>.json beside the model, which lets 'strata verify' name what changed.

        Examples:
          strata lock Sources/App/Models/PetStore                 seal every version not yet sealed
          strata lock Models/PetStore --version V4 --force        reseal V4, which never shipped

        Exit status: 0 when done, 1 when a sealed version's lock differs (without --force), 2 when the model has errors.
        """
    )

    @Argument(help: "The model folder.", completion: .directory)
    var directory: String

    @Option(name: .customLong("version"), help: "Seal only this version (repeatable). Default: every version.")
    var versions: [String] = []

    @Flag(help: "Replace a lock that differs. Only for a version that never shipped.")
    var force = false

    @OptionGroup var common: CommonOptions

    func run() throws {
        let loaded = ModelLoader.load(directory: directory)
        if !loaded.diagnostics.isEmpty {
            Output.error(loaded.diagnostics.map { "\($0)\n" }.joined())
        }
        switch LockWriter.plan(loaded, versions: versions.isEmpty ? nil : versions, force: force) {
        case .failure(let failure):
            Output.error(failure.message + "\n")
            switch failure {
            case .alreadySealed, .cannotEdit: throw ExitCode(1)
            case .invalidModel, .unknownVersion: throw ExitCode(2)
            }
        case .success(let changes):
            try LockWriter.apply(changes)
            for change in changes where !common.quiet {
                Output.out(change.newContents == nil ? "\(change.version): already sealed (\(change.file))\n" : "\(change.version): sealed (\(change.file))\n")
            }
        }
    }
}
