import Foundation
import PackagePlugin

/// Generates Swift for every model folder under a target's `Models/`: a build command per model,
/// with every YAML file as input and every generated file as a named output (``GeneratedFileNames``,
/// the same source the generator compiles), so SwiftPM reruns it only when a model file changes. Model errors are printed as `path:line:column: error: message`. The generated
/// declarations are internal to the target.
@main
struct StrataPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        // A test target also gets a suite migrating a seeded store from every older version.
        let isTestTarget = (target as? SourceModuleTarget)?.kind == .test
        return try StrataPlugin.commands(models: target.directoryURL.appending(path: "Models"),
                                         tool: try context.tool(named: "strata").url,
                                         workDirectory: context.pluginWorkDirectoryURL, migrationTests: isTestTarget)
    }

    static func commands(models: URL, tool: URL, workDirectory: URL, migrationTests: Bool = false) throws -> [Command] {
        let manager = FileManager.default
        return ModelFolders.candidates(in: models)
            .map { folder in
                let name = folder.deletingPathExtension().lastPathComponent
                let output = workDirectory.appending(path: name)
                let inputs = ((try? manager.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [folder])
                    .filter { ["yml", "yaml"].contains($0.pathExtension) }
                    .sorted { $0.path < $1.path }
                return .buildCommand(
                    displayName: "Generating Strata model \(name)",
                    executable: tool,
                    arguments: ["generate", folder.path, "--output", output.path, "--file-prefix", name, "--access", "internal",
                                "--render-cache", workDirectory.appending(path: "render-cache").path]
                        + (migrationTests ? ["--migration-tests"] : []),
                    inputFiles: inputs,
                    outputFiles: (GeneratedFileNames.all(prefix: name) + (migrationTests ? [GeneratedFileNames.migrationTests(name)] : []))
                        .map { output.appending(path: $0) }
                )
            }
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension StrataPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        try StrataPlugin.commands(models: context.xcodeProject.directoryURL.appending(path: "Models"),
                                  tool: try context.tool(named: "strata").url,
                                  workDirectory: context.pluginWorkDirectoryURL)
    }
}
#endif
