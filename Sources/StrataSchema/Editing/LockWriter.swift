import Foundation

/// Seals versions: computes their locks and writes them into the version files, changing no other
/// byte, and writes the sealed records beside them.
///
/// Planning and writing are separate: ``plan(_:versions:force:)`` decides everything and fails as
/// a whole, so a refused or invalid run writes nothing.
public enum LockWriter {
    /// What sealing one version does.
    public struct Change: Hashable, Sendable {
        /// The version.
        public var version: String
        /// The version file.
        public var file: String
        /// The file's new bytes, or nil when its lock is already right.
        public var newContents: [UInt8]?
        /// The sealed record's path and new bytes, or nil when it is already right.
        public var record: (path: String, contents: [UInt8])?

        /// Equal when they change the same file to the same bytes.
        public static func == (lhs: Change, rhs: Change) -> Bool {
            lhs.version == rhs.version && lhs.file == rhs.file && lhs.newContents == rhs.newContents
                && lhs.record?.path == rhs.record?.path && lhs.record?.contents == rhs.record?.contents
        }

        /// Hashes what `==` compares.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(version)
            hasher.combine(file)
            hasher.combine(newContents)
        }
    }

    /// Why nothing was written.
    public enum Failure: Error, Hashable, Sendable {
        /// The model has errors; they are in the loaded model's diagnostics.
        case invalidModel
        /// `--version` named a version the model does not have.
        case unknownVersion(String)
        /// A sealed version's lock differs and `force` was not given.
        case alreadySealed(version: String, file: String, location: SourceLocation)
        /// The file cannot take a lock without rewriting more than the lock.
        case cannotEdit(file: String, reason: String)

        /// The message the CLI prints.
        public var message: String {
            switch self {
            case .invalidModel:
                return "the model has errors; nothing was locked"
            case .unknownVersion(let name):
                return "the model has no version '\(name)'"
            case .alreadySealed(let version, _, let location):
                return "\(location): error: version '\(version)' was already sealed, and the model no longer matches its lock. "
                    + "A sealed version may have shipped, so it must not change: add a new version instead, "
                    + "or pass --force if this version never left your machine"
            case .cannotEdit(let file, let reason):
                return "\(file): error: \(reason)"
            }
        }
    }

    /// Decides the new contents of each version file; writes nothing.
    public static func plan(_ loaded: LoadedModel, versions names: [String]? = nil, force: Bool = false) -> Result<[Change], Failure> {
        guard loaded.isValid, let model = loaded.model else { return .failure(.invalidModel) }
        var selected = model.versions
        if let names {
            selected = []
            for name in names {
                guard let version = model.version(named: name) else {
                    return .failure(.unknownVersion(name))
                }
                selected.append(version)
            }
        }
        var changes: [Change] = []
        for version in selected {
            let status = LockVerifier.status(of: version, model: model.manifest.name, directory: loaded.directory)
            if status.state == .changed, !force {
                return .failure(.alreadySealed(version: version.name, file: version.file, location: status.location))
            }
            var change = Change(version: version.name, file: version.file)
            let shapes = EntityShape.shapes(of: version)
            let locks = shapes.mapValues { LockFormat.current.lock($0) }
            if status.state != .sealed {
                switch edit(loaded.sources[version.file] ?? [], file: version.file, locks: locks) {
                case .success(let contents): change.newContents = contents
                case .failure(let failure): return .failure(failure)
                }
            }
            let record = SealedRecord(model: model.manifest.name, version: version)
            let existing = SealedRecord.read(directory: loaded.directory, version: version.name)
            if existing != record, let bytes = try? record.encoded() {
                change.record = (SealedRecord.path(directory: loaded.directory, version: version.name), bytes)
            }
            changes.append(change)
        }
        return .success(changes)
    }

    /// Writes every planned change; each file is replaced atomically.
    public static func apply(_ changes: [Change]) throws {
        for change in changes {
            if let contents = change.newContents {
                try Data(contents).write(to: URL(fileURLWithPath: change.file), options: .atomic)
            }
            if let record = change.record {
                let url = URL(fileURLWithPath: record.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(record.contents).write(to: url, options: .atomic)
            }
        }
    }

    /// The file's bytes with its `versionLock:` replaced by `locks`, or with one appended.
    static func edit(_ bytes: [UInt8], file: String, locks: [String: LockHash]) -> Result<[UInt8], Failure> {
        let result = YAMLReader.read(bytes, file: file)
        guard let root = result.root, root.entries != nil else {
            return .failure(.cannotEdit(file: file, reason: "the file could not be read again to place the lock"))
        }
        guard !root.isFlow else {
            return .failure(.cannotEdit(file: file, reason: "the version file is one flow mapping ({...}); write it in block style so a lock can be added"))
        }
        // Lines end the way the file's first line ends, so a CRLF file stays CRLF throughout.
        let newline = LineEnding.of(bytes)
        let block = "versionLock:" + locks.keys.sorted().map { "\(newline)  \($0): \(locks[$0]!)" }.joined()
        var output: [UInt8]
        if let entry = root.entries?.first(where: { $0.key.scalarText == "versionLock" }) {
            let offsets = ScalarOffsets(bytes)
            let start = offsets.byteOffset(ofScalar: entry.key.span.lowerBound)
            var end: Int
            if entry.value.span.isEmpty {
                end = offsets.byteOffset(ofScalar: entry.key.span.upperBound)
                while end < bytes.count, bytes[end] == UInt8(ascii: " ") { end += 1 }
                if end < bytes.count, bytes[end] == UInt8(ascii: ":") { end += 1 }
            } else {
                end = offsets.byteOffset(ofScalar: entry.value.contentEnd)
            }
            output = Array(bytes[..<start]) + Array(block.utf8) + Array(bytes[end...])
        } else {
            output = bytes
            if let last = output.last, last != UInt8(ascii: "\n") { output += Array(newline.utf8) }
            output += Array((block + newline).utf8)
        }
        // Read the result back: the lock must parse to exactly what was meant, or nothing is written.
        var parser = VersionParser()
        let check = YAMLReader.read(output, file: file)
        guard check.diagnostics.isEmpty, let newRoot = check.root, let version = parser.parse(newRoot, file: file),
              version.versionLock?.entries.mapValues(\.value) == locks else {
            return .failure(.cannotEdit(file: file, reason: "placing the lock would change more than the lock; add 'versionLock:' at the end of the file by hand and run again"))
        }
        return .success(output)
    }
}

/// The line ending a file uses: its first line's, so that an edit of a CRLF file stays CRLF.
enum LineEnding {
    /// `"\r\n"` when the first line ends so, otherwise `"\n"`.
    static func of(_ bytes: [UInt8]) -> String {
        bytes.firstIndex(of: UInt8(ascii: "\n")).map { $0 > 0 && bytes[$0 - 1] == UInt8(ascii: "\r") } == true ? "\r\n" : "\n"
    }
}

/// Maps libyaml's Unicode-scalar offsets to byte offsets in UTF-8 text.
struct ScalarOffsets {
    private var starts: [Int] = []

    init(_ bytes: [UInt8]) {
        starts.reserveCapacity(bytes.count + 1)
        for (index, byte) in bytes.enumerated() where byte & 0xC0 != 0x80 {
            starts.append(index)
        }
        starts.append(bytes.count)
    }

    /// The byte offset where the scalar at `index` starts (the end of the text past the last one).
    func byteOffset(ofScalar index: Int) -> Int {
        starts[min(index, starts.count - 1)]
    }
}
