import Foundation
import PackagePlugin

/// `swift package strata-verify`: runs `strata verify` over every model folder (`Models/<Name>/`
/// with a `model.yml`) of the package's targets and its root, and fails when any version is
/// invalid, unsealed or changed.
@main
struct StrataVerifyPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let folders = ModelFolders.find(package: context.package)
        guard !folders.isEmpty else {
            Diagnostics.remark("no model folders (Models/<Name>/model.yml) in this package")
            return
        }
        let status = try ModelFolders.run(try context.tool(named: "strata").url, ["verify"] + folders.map(\.path) + arguments)
        if status != 0 {
            Diagnostics.error("strata verify failed (exit \(status))")
            throw ModelFolders.Failure.exitStatus(status)
        }
    }
}

/// Finding model folders and running the tool (each command plugin carries this small copy:
/// plugins cannot share code).
enum ModelFolders {
    enum Failure: Error {
        case exitStatus(Int32)
    }

    static func find(package: Package) -> [URL] {
        let manager = FileManager.default
        let roots = [package.directoryURL] + package.targets.map(\.directoryURL)
        return roots.flatMap { root -> [URL] in
            let models = root.appending(path: "Models")
            let children = (try? manager.contentsOfDirectory(at: models, includingPropertiesForKeys: nil)) ?? []
            return children.filter { manager.fileExists(atPath: $0.appending(path: "model.yml").path) }
        }.sorted { $0.path < $1.path }
    }

    static func run(_ tool: URL, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
