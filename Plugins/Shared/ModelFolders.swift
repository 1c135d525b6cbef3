import Foundation
import PackagePlugin

/// Finding model folders and running the tool. Plugins cannot depend on library targets, so each
/// command plugin links this one file into its own sources (a symbolic link in its folder).
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
