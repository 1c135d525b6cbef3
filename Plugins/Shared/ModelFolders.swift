import Foundation
import PackagePlugin

/// Finding model folders and running the tool. Plugins cannot depend on library targets, so each
/// command plugin links this one file into its own sources (a symbolic link in its folder).
enum ModelFolders {
    /// A run of `strata` that failed; it has printed why, so this only says which command.
    struct Failure: Error, CustomStringConvertible {
        let command: String
        let status: Int32
        var description: String { "\(command) found the problems above (exit \(status))" }
    }

    /// What `strata` must look at under the package's and its targets' `Models/` folders.
    static func find(package: Package) -> [URL] {
        ([package.directoryURL] + package.targets.map(\.directoryURL))
            .flatMap { candidates(in: $0.appending(path: "Models")) }
            .sorted { $0.path < $1.path }
    }

    /// Every folder under `models` that holds `model.yml` or any YAML file, and every YAML file
    /// directly in `models`. A folder without `model.yml` and a file outside any folder are handed
    /// to `strata` too, which reports each as an error at its place (what the manifest must say,
    /// or that the file belongs to no model) instead of the build leaving them out unseen.
    static func candidates(in models: URL) -> [URL] {
        let manager = FileManager.default
        // A model folder may be a symbolic link to another package's (two apps on one model):
        // listed through the link, Foundation on Linux finds it empty, so each is resolved.
        let children = ((try? manager.contentsOfDirectory(at: models, includingPropertiesForKeys: nil)) ?? []).map { $0.resolvingSymlinksInPath() }
        let isYAML = { (url: URL) in ["yml", "yaml"].contains(url.pathExtension) && !url.lastPathComponent.hasPrefix(".") }
        return children.filter { child in
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: child.path, isDirectory: &isFolder) else { return false }
            if !isFolder.boolValue { return isYAML(child) }
            let files = (try? manager.contentsOfDirectory(at: child, includingPropertiesForKeys: nil)) ?? []
            return files.contains(where: isYAML)
        }.sorted { $0.lastPathComponent < $1.lastPathComponent }
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
