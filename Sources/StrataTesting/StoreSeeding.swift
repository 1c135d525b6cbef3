import Foundation
import Strata

/// Stores at old versions, for testing migrations the way they will run on users' devices: seed a
/// store at any version from plain values, add it to a stack of the current model (which migrates
/// it), and inspect it with the current classes.
public enum StoreSeeding {
    /// Writes a new store file at `url` at version `version` of `history`'s model, holding the
    /// tables of `configuration` (nil: `Default`) and `objects`.
    ///
    /// The file must not exist. When a value does not fit (an unknown entity or property, a
    /// duplicate id), the error names it and no file is left behind.
    public static func seedStore(at url: URL, history: SchemaHistory, version: String, configuration: String? = nil,
                                 objects: [SeedObject]) throws(StrataError) {
        let path = url.path
        guard !FileManager.default.fileExists(atPath: path) else {
            throw .fileSystem(path: path, message: "a seeded store must be a new file, and this one exists")
        }
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .fileSystem(path: url.deletingLastPathComponent().path, message: "cannot create the folder: \(error.localizedDescription)")
        }
        do {
            let writer = try SeedWriter(path: path, history: history, version: version, configuration: configuration ?? "Default")
            for object in objects {
                try writer.insert(entity: object.entity, id: object.id, attributes: object.attributes.mapValues(\.sqlValue),
                                  relationships: object.relationships)
            }
            try writer.finish()
        } catch {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            throw error
        }
    }
}
