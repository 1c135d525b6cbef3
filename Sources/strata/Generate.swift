import ArgumentParser
import Foundation
import StrataCodegen
import StrataSchema

/// `strata generate DIR... --output DIR [--templates DIR] [--access public|internal]`
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Generates Swift for the runtime from models: entity classes, snapshots, the schema history.",
        discussion: """
        Writes <Model>Entities1.swift ... <Model>Entities64.swift (classes and snapshots), \
        <Model>SchemaHistory.swift, <Model>SchemaVersions.swift, <Model>Importers.swift and <Model>Migrations.swift \
        (and, with --migration-tests, <Model>MigrationTests.swift) \
        into the output folder, rewriting only files whose content changed, and deletes the files an earlier Strata \
        generated there that it no longer writes (such as <Model>Snapshots1.swift). Writes nothing when a model has errors (exit 2) or when a sealed \
        version no longer matches its lock (exit 1). With --check, writes nothing and exits 1 when the output folder's files differ from \
        what would be generated (for projects that commit generated code).

        Examples:
          strata generate Models/PetStore --output Sources/App/Generated
          strata generate Models/PetStore --output Sources/App/Generated --check      in CI
        """
    )

    @Argument(help: "Model folders, each holding model.yml and one file per version.", completion: .directory)
    var directories: [String]

    @Option(help: "The folder the Swift files go to.", completion: .directory)
    var output: String

    @Option(help: "A folder of templates; each one there replaces the built-in template of the same name.")
    var templates: String?

    @Option(help: "public (default) or internal.")
    var access: AccessLevel = .public

    @Option(name: .customLong("file-prefix"), help: "Name the files <prefix>Entities1.swift ... instead of after the model (for build tools that name outputs in advance).")
    var filePrefix: String?

    @Flag(name: .customLong("migration-tests"), help: "Also write <Model>MigrationTests.swift: a Swift Testing suite migrating a seeded store from every older version.")
    var migrationTests = false

    @Option(name: .customLong("testable-import"), help: "With --migration-tests: the module holding the model, when the tests live in another one.")
    var testableImport: String?

    @Flag(help: "Write nothing; exit 1 when the output folder's files are not what would be generated.")
    var check = false

    @Option(name: .customLong("render-cache"), help: "A folder where rendered files are kept with their inputs, and each version's locks with its file's text; what did not change is taken from it (for build tools; the plugin keeps one per model).")
    var renderCache: String?

    @OptionGroup var common: CommonOptions

    func run() throws {
        var files: [GeneratedFile] = []
        var prefixes: [String] = []
        var exitCode: Int32 = 0
        defer { Output.progressDone(quiet: common.quiet) }
        for directory in directories {
            Output.progress("reading \(directory)…", quiet: common.quiet)
            let loaded = ModelLoader.load(directory: directory)
            // Locks kept for version files whose bytes did not change are not computed again.
            let cache = renderCache.flatMap { folder in
                loaded.model.map { RenderCache(directory: folder + "/" + $0.manifest.name, generator: Self.generatorIdentity) }
            }
            let locks = loaded.isValid ? loaded.model.map { CurrentLocks.of($0, sources: loaded.sources, cache: cache) } ?? [:] : [:]
            let report = VerifyReport(loaded: loaded, proposingLocks: false, currentLocks: locks)
            if report.exitCode == 2 || report.versions.contains(where: { $0.state == .changed }) {
                Output.error(report.text)
                exitCode = max(exitCode, report.exitCode)
                continue
            }
            guard let model = loaded.model else { continue }
            Output.progress("generating \(model.manifest.name): \(model.currentVersion?.entities.count ?? 0) entities, "
                            + "\(model.versions.count) versions…", quiet: common.quiet)
            do {
                let generator = try CodeGenerator(templatesDirectory: templates, access: access)
                var generated = try generator.generate(model, cache: cache, locks: locks)
                if migrationTests { generated.append(try generator.migrationTests(model, testableImport: testableImport)) }
                prefixes.append(filePrefix ?? model.manifest.name)
                files += generated.map { file in
                    guard let filePrefix else { return file }
                    return GeneratedFile(name: filePrefix + file.name.dropFirst(model.manifest.name.count), contents: file.contents)
                }
            } catch {
                Output.error("error: \(error)\n")
                exitCode = 2
            }
        }
        guard exitCode == 0 else { throw ExitCode(exitCode) }
        let leftovers = GeneratedLeftovers.find(in: output, prefixes: prefixes, keeping: Set(files.map(\.name)))
        if check {
            let stale = files.filter { FileManager.default.contents(atPath: output + "/" + $0.name) != Data($0.contents.utf8) }
            guard stale.isEmpty, leftovers.isEmpty else {
                Output.progressDone(quiet: common.quiet)
                Output.error(stale.map { file in
                    let path = output + "/" + file.name
                    return FileManager.default.fileExists(atPath: path) ? "error: \(path) is not what the model generates\n" : "error: \(path) is missing\n"
                }.joined()
                             + leftovers.map { "error: \(output)/\($0) was generated by an earlier Strata and is no longer written\n" }.joined()
                             + "run 'strata generate \(directories.joined(separator: " ")) --output \(output)' and commit the result\n")
                throw ExitCode(1)
            }
            return
        }
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        for file in files {
            let path = output + "/" + file.name
            let data = Data(file.contents.utf8)
            if FileManager.default.contents(atPath: path) == data { continue }
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        }
        for name in leftovers {
            try FileManager.default.removeItem(atPath: output + "/" + name)
        }
    }
}

extension Generate {
    /// What identifies this build of the generator in a render cache's keys: its executable's size
    /// and modification time, so that a rebuilt generator renders every file again.
    static var generatorIdentity: String {
        let path = Bundle.main.executablePath ?? CommandLine.arguments[0]
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = attributes?[.size].map { "\($0)" } ?? "?"
        let time = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
        return "strata \(CodeGenerator.version) \(path) \(size) \(time)"
    }
}

extension AccessLevel: ExpressibleByArgument {}
