import Foundation
import StrataTestSupport
@testable import StrataSchema

/// A model folder written to a fresh temporary directory, for tests.
struct ModelFixture {
    let directory: String

    /// Writes each file (name → text) into a new folder.
    init(_ files: [String: String]) throws {
        try self.init(bytes: files.mapValues { Array($0.utf8) })
    }

    /// Writes each file (name → exact bytes) into a new folder.
    init(bytes files: [String: [UInt8]]) throws {
        directory = TestFolders.url("strata-tests").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (name, bytes) in files {
            try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + name))
        }
    }

    /// A model with `model.yml` naming the chain `[V1]` and one version file.
    init(v1 version: String, manifest: String = "model: Shop\nmigrationChain: [V1]\n") throws {
        try self.init(["model.yml": manifest, "V1.yml": version])
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/" + name))
    }

    func read(_ name: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)), as: UTF8.self)
    }

    func load() -> LoadedModel { ModelLoader.load(directory: directory) }

    /// Diagnostics as printed, with the folder prefix removed: `V1.yml:3:5: error: ...`.
    func messages() -> [String] {
        load().diagnostics.map { $0.description.replacingOccurrences(of: directory + "/", with: "") }
    }
}
