import Strata
import ArgumentParser
import StrataSchema

/// `strata sql DIR [--version V]`, `strata sql DIR --from V1 --to V2 [--configuration C]`
struct SQL: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Prints the SQL the runtime creates a store of a model version with, or migrates one with.",
        discussion: """
            With --from and --to, prints the SQL of every step of the chain between the two versions, exactly as the \
            runtime runs it in one transaction; rows produced by the app's custom steps are shown as comments.

            Examples:
              strata sql Models/PetStore                   the current version's tables
              strata sql Models/PetStore --from V1         every step from V1 to the current version
              strata sql Models/PetStore --dialect postgresql   the tables of a PostgreSQL store

            Exit status: 0 when printed, 2 when the model has errors, a version is unknown, or a step cannot be inferred.
            """
    )

    @Argument(help: "The model folder.", completion: .directory)
    var directory: String

    @Option(name: .customLong("version"), help: "The version (default: the current one).")
    var version: String?

    @Option(name: .customLong("from"), help: "Print the migration from this version...")
    var from: String?

    @Option(name: .customLong("to"), help: "...to this one (default: the current one).")
    var to: String?

    @Option(name: .customLong("configuration"), help: "The storage's configuration (default: Default).")
    var storageConfiguration: String = "Default"

    @Option(name: .customLong("dialect"), help: "The SQL of this backend: sqlite (the default) or postgresql.")
    var dialect: SQLDialect = .sqlite

    func run() throws {
        let loaded = ModelLoader.load(directory: directory)
        guard loaded.isValid, let model = loaded.model else {
            Output.error(loaded.diagnostics.map { "\($0)\n" }.joined())
            throw ExitCode(2)
        }
        let named = { (name: String) throws -> SchemaVersion in
            guard let found = model.version(named: name) else {
                Output.error(Output.unknownVersion(name, in: model))
                throw ExitCode(2)
            }
            return found
        }
        if let from {
            guard let current = model.currentVersion else { throw ExitCode(2) }
            let destination = try named(to ?? current.name)
            _ = try named(from)
            if from == destination.name {
                Output.error("nothing to migrate: \(from) is \(to == nil ? "the current version" : "the version to migrate to"); "
                             + "name an older version with --from\n")
                return
            }
            try printMigration(model, from: from, to: destination.name)
            return
        }
        guard let chosen = try version.map(named) ?? model.currentVersion else { throw ExitCode(2) }
        let statements = StoreSchemaSQL.statements(for: RuntimeDescriptors.modelVersion(chosen, in: model), dialect: dialect)
        Output.out("-- \(model.manifest.name) \(chosen.name)\n" + statements.map { $0 + ";\n" }.joined())
    }

    /// The plans of each step from `from` to `to`, as the runtime makes them.
    private func printMigration(_ model: Model, from: String, to: String) throws {
        let path = model.manifest.chain.path(from: from)
        guard let end = path.firstIndex(of: to) else {
            Output.error("error: the migration chain does not lead from \(from) to \(to)\n")
            throw ExitCode(2)
        }
        var text = ""
        defer { Output.progressDone(quiet: false) }
        for (step, (source, destination)) in zip(path[...end], path[...end].dropFirst()).enumerated() {
            Output.progress("planning \(source) → \(destination) (step \(step + 1) of \(end))…", quiet: false)
            guard let old = model.version(named: source), let new = model.version(named: destination) else { continue }
            let planner = MigrationPlanner(from: RuntimeDescriptors.modelVersion(old, in: model), to: RuntimeDescriptors.modelVersion(new, in: model),
                                           configuration: storageConfiguration, dialect: dialect)
            do {
                let plan = try planner.plan()
                text += "-- \(model.manifest.name) \(source) → \(destination)\(plan.isCustom ? " (heavyweight)" : " (lightweight)")\n" + plan.sqlText
            } catch {
                Output.error("error: \(model.manifest.name) \(source) → \(destination) cannot be inferred: \(error)\n")
                throw ExitCode(2)
            }
        }
        Output.out(text)
    }
}

extension SQLDialect: ExpressibleByArgument {}
