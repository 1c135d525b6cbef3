import Foundation

/// The shapes a version had when it was sealed, kept beside the model as
/// `sealed/<version>.json` so that `strata verify` can say which property changed and how, not
/// just that a hash differs. The lock in the version file stays the authority: a record whose
/// shapes do not hash to that lock is ignored.
public struct SealedRecord: Hashable, Sendable, Codable {
    /// The lock format the record was written with.
    public var format: Int
    /// The model's name.
    public var model: String
    /// The version's name.
    public var version: String
    /// Every entity's shape, sorted by name.
    public var entities: [EntityShape]

    /// Records the current shapes of a version.
    public init(model: String, version: SchemaVersion) {
        self.format = LockFormat.current.rawValue
        self.model = model
        self.version = version.name
        self.entities = EntityShape.shapes(of: version).values.sorted { $0.entity < $1.entity }
    }

    /// The folder, inside the model folder, that holds the records.
    public static let folderName = "sealed"

    /// Where the record of `version` lives in a model folder.
    public static func path(directory: String, version: String) -> String {
        let folder = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return "\(folder)/\(folderName)/\(version).json"
    }

    /// Stable, human-readable JSON: sorted keys, pretty-printed, trailing line feed.
    public func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [UInt8(ascii: "\n")]
    }

    /// Reads a record, or nil when there is none or it cannot be decoded.
    public static func read(directory: String, version: String) -> SealedRecord? {
        let url = URL(fileURLWithPath: path(directory: directory, version: version))
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(SealedRecord.self, from: data)
    }
}
