import Foundation
import StrataSchema

/// Writes a converted model folder, checked and sealed, or nothing at all.
public enum ConvertedModelWriter {
    /// Why nothing was written.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The output folder exists and holds files.
        case outputNotEmpty(String)
        /// The converted model does not pass `strata verify`: its diagnostics, by version file.
        case invalidModel([String])
        /// The file system refused a write.
        case fileSystem(String)

        /// The message, with what to do about it.
        public var description: String {
            switch self {
            case .outputNotEmpty(let path):
                return "error: \(path) exists and is not empty; nothing was written (give a new folder)"
            case .invalidModel(let diagnostics):
                return "error: the converted model is not valid, so nothing was written; give another order or subset with --chain, "
                    + "or change the Core Data model:\n" + diagnostics.joined(separator: "\n")
            case .fileSystem(let message):
                return "error: \(message); nothing was written"
            }
        }
    }

    /// Writes `model` into `directory` (new, or empty), with the JSON Schemas its files point
    /// editors at in `.strata/`, checks it as `strata verify` does, and seals every version as
    /// `strata lock` does. It is written beside `directory` first and moved
    /// into place whole, so a failure leaves nothing behind. Returns the version files sealed.
    @discardableResult
    public static func write(_ model: ConvertedModel, to directory: String) throws(Failure) -> [String] {
        let fileManager = FileManager.default
        let target = URL(fileURLWithPath: directory).standardizedFileURL
        if let entries = try? fileManager.contentsOfDirectory(atPath: target.path), !entries.isEmpty {
            throw .outputNotEmpty(directory)
        }
        let parent = target.deletingLastPathComponent()
        let staging = parent.appendingPathComponent(".\(target.lastPathComponent).strata-convert-\(UUID().uuidString)")
        do {
            try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
        } catch {
            throw .fileSystem("cannot create \(staging.path): \(error.localizedDescription)")
        }
        do throws(Failure) {
            for file in model.files {
                do {
                    try Data(file.contents.utf8).write(to: staging.appendingPathComponent(file.name), options: .atomic)
                } catch {
                    throw Failure.fileSystem("cannot write \(file.name): \(error.localizedDescription)")
                }
            }
            do {
                try ModelJSONSchemas.write(into: staging.appendingPathComponent(ModelJSONSchemas.folder).path)
            } catch {
                throw Failure.fileSystem("cannot write the schemas: \(error.localizedDescription)")
            }
            let loaded = ModelLoader.load(directory: staging.path)
            let errors = loaded.diagnostics.filter { $0.severity == .error }
            guard loaded.isValid, errors.isEmpty else {
                throw Failure.invalidModel(errors.map { relative($0.description, to: staging.path) })
            }
            let changes: [LockWriter.Change]
            switch LockWriter.plan(loaded) {
            case .success(let planned): changes = planned
            case .failure(let failure): throw Failure.invalidModel([relative(failure.message, to: staging.path)])
            }
            do {
                try LockWriter.apply(changes)
                if fileManager.fileExists(atPath: target.path) { try fileManager.removeItem(at: target) }
                try fileManager.moveItem(at: staging, to: target)
            } catch {
                throw Failure.fileSystem("cannot write \(directory): \(error.localizedDescription)")
            }
            return changes.map(\.version)
        } catch {
            try? fileManager.removeItem(at: staging)
            throw error
        }
    }

    /// A message with the staging folder's path made relative to the model folder.
    private static func relative(_ message: String, to staging: String) -> String {
        message.replacingOccurrences(of: staging + "/", with: "").replacingOccurrences(of: staging, with: ".")
    }
}
