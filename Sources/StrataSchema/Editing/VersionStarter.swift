import Foundation

/// Starts the next version of a model (`strata new-version`): a copy of the current version's
/// file under the new name, without the current version's lock and migration block, appended to
/// the migration chain. Every other byte of both files is kept.
public enum VersionStarter {
    /// The two files to write.
    public struct Plan: Hashable, Sendable {
        /// The new version's name.
        public var version: String
        /// The new version file and its contents.
        public var versionFile: String
        /// Its contents.
        public var versionContents: [UInt8]
        /// `model.yml`.
        public var manifestFile: String
        /// `model.yml` with the new version at the end of the chain.
        public var manifestContents: [UInt8]
    }

    /// Why a version could not be started.
    public enum Failure: Error, Hashable, Sendable {
        /// The model has errors; they were reported.
        case invalidModel
        /// The name is taken, invalid, or cannot be derived.
        case badName(String)
        /// A file could not be edited as planned.
        case cannotEdit(file: String, reason: String)

        /// The message for people.
        public var message: String {
            switch self {
            case .invalidModel: return "error: the model has errors; fix them before starting a version"
            case .badName(let reason): return "error: \(reason)"
            case .cannotEdit(let file, let reason): return "\(file): error: \(reason)"
            }
        }
    }

    /// Plans the next version after the current one, named `name` or, by default, the current
    /// name with its trailing number increased (`V3` → `V4`).
    public static func plan(_ loaded: LoadedModel, name: String? = nil) -> Result<Plan, Failure> {
        guard loaded.isValid, let model = loaded.model, let current = model.currentVersion else { return .failure(.invalidModel) }
        guard let name = name ?? nextName(after: current.name) else {
            return .failure(.badName("cannot derive a name after '\(current.name)'; give one: strata new-version \(loaded.directory) NAME"))
        }
        guard Identifier.isValid(name) else { return .failure(.badName("'\(name)' is not a valid version name; \(Identifier.rule)")) }
        guard model.version(named: name) == nil else { return .failure(.badName("the model already has a version '\(name)'")) }
        let folder = (current.file as NSString).deletingLastPathComponent
        let file = folder + "/" + name + ".yml"
        guard !FileManager.default.fileExists(atPath: file) else { return .failure(.badName("\(file) already exists")) }
        guard let source = loaded.sources[current.file], let manifestSource = loaded.sources[model.manifest.file] else {
            return .failure(.cannotEdit(file: current.file, reason: "the file could not be read again"))
        }
        return versionText(source, file: current.file, name: name).flatMap { version in
            chainText(manifestSource, file: model.manifest.file, current: current.name, name: name).map { manifest in
                Plan(version: name, versionFile: file, versionContents: version, manifestFile: model.manifest.file, manifestContents: manifest)
            }
        }
    }

    /// Writes the new version file, then `model.yml` (atomically).
    public static func apply(_ plan: Plan) throws {
        try Data(plan.versionContents).write(to: URL(fileURLWithPath: plan.versionFile), options: .withoutOverwriting)
        do {
            try Data(plan.manifestContents).write(to: URL(fileURLWithPath: plan.manifestFile), options: .atomic)
        } catch {
            try? FileManager.default.removeItem(atPath: plan.versionFile)
            throw error
        }
    }

    /// `V3` → `V4`, `v1_9` → `v1_10`; nil for a name without a trailing number.
    static func nextName(after name: String) -> String? {
        let digits = name.reversed().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let number = Int(String(digits.reversed())) else { return nil }
        return String(name.dropLast(digits.count)) + String(number + 1)
    }

    /// The current version's file renamed to `name`, its `versionLock:` and `migration:` blocks left out.
    private static func versionText(_ bytes: [UInt8], file: String, name: String) -> Result<[UInt8], Failure> {
        let result = YAMLReader.read(bytes, file: file)
        guard let root = result.root, let entries = root.entries, !root.isFlow,
              let versionEntry = entries.first(where: { $0.key.scalarText == "version" }) else {
            return .failure(.cannotEdit(file: file, reason: "the version file is not a block mapping Strata can copy; copy it by hand"))
        }
        let offsets = ScalarOffsets(bytes)
        // Each edit is a byte range and its replacement, applied from the end so earlier offsets hold.
        var edits: [(range: Range<Int>, text: String)] = [
            (offsets.byteOffset(ofScalar: versionEntry.value.span.lowerBound)..<offsets.byteOffset(ofScalar: versionEntry.value.span.upperBound), name),
        ]
        for (index, entry) in entries.enumerated() where ["versionLock", "migration"].contains(entry.key.scalarText) {
            let start = offsets.byteOffset(ofScalar: entry.key.span.lowerBound)
            let end = index + 1 < entries.count ? offsets.byteOffset(ofScalar: entries[index + 1].key.span.lowerBound) : bytes.count
            edits.append((start..<end, ""))
        }
        var output = bytes
        for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            output.replaceSubrange(edit.range, with: Array(edit.text.utf8))
        }
        var parser = VersionParser()
        let check = YAMLReader.read(output, file: file)
        guard check.diagnostics.isEmpty, let newRoot = check.root, let version = parser.parse(newRoot, file: file),
              version.name == name, version.versionLock == nil else {
            return .failure(.cannotEdit(file: file, reason: "copying the version would change more than its name and lock; copy it by hand"))
        }
        return .success(output)
    }

    /// `model.yml` with `name` after `current` in the chain: appended to a sequence, or
    /// `current: name` added to a mapping; a missing chain becomes `[current, name]`.
    private static func chainText(_ bytes: [UInt8], file: String, current: String, name: String) -> Result<[UInt8], Failure> {
        let result = YAMLReader.read(bytes, file: file)
        guard let root = result.root, let entries = root.entries, !root.isFlow else {
            return .failure(.cannotEdit(file: file, reason: "model.yml is not a block mapping Strata can edit; add '\(name)' to migrationChain by hand"))
        }
        let offsets = ScalarOffsets(bytes)
        let newline = LineEnding.of(bytes)
        var output = bytes
        if let chain = entries.first(where: { $0.key.scalarText == "migrationChain" })?.value {
            let end = offsets.byteOffset(ofScalar: chain.contentEnd)
            switch (chain.kind, chain.isFlow) {
            case (.sequence, true), (.mapping, true):
                // Just before the closing bracket or brace.
                guard let close = output[..<offsets.byteOffset(ofScalar: chain.span.upperBound)].lastIndex(where: { $0 == UInt8(ascii: "]") || $0 == UInt8(ascii: "}") }) else {
                    return .failure(.cannotEdit(file: file, reason: "add '\(name)' to migrationChain by hand"))
                }
                let item = { if case .sequence = chain.kind { return name } else { return current + ": " + name } }()
                output.insert(contentsOf: Array(((chain.items?.isEmpty ?? chain.entries?.isEmpty ?? true) ? item : ", " + item).utf8), at: close)
            case (.sequence, false), (.mapping, false):
                let first = chain.items?.first ?? chain.entries?.first?.key
                let column = max(1, first?.location.column ?? 3)
                let indent = String(repeating: " ", count: column - 1 - (chain.items == nil ? 0 : 2))
                let item = { if case .sequence = chain.kind { return "- " + name } else { return current + ": " + name } }()
                output.insert(contentsOf: Array((newline + indent + item).utf8), at: end)
            default:
                return .failure(.cannotEdit(file: file, reason: "add '\(name)' to migrationChain by hand"))
            }
        } else {
            if let last = output.last, last != UInt8(ascii: "\n") { output += Array(newline.utf8) }
            output += Array("migrationChain: [\(current), \(name)]\(newline)".utf8)
        }
        var parser = ManifestParser()
        let check = YAMLReader.read(output, file: file)
        guard check.diagnostics.isEmpty, let newRoot = check.root, let manifest = parser.parse(newRoot, file: file, singleVersion: nil),
              parser.diagnostics.all.isEmpty, manifest.chain.successor(of: current) == name else {
            return .failure(.cannotEdit(file: file, reason: "adding '\(name)' would change more than migrationChain; add it by hand"))
        }
        return .success(output)
    }
}
