import StrataSchema

/// The lock every entity of every version has in the current format, which generating needs
/// (an unsealed version's locks go into the generated code) and verifying compares with a sealed
/// version's locks.
///
/// Hashing an entity means encoding its shape and running SHA-256 over it, in the debug build of
/// the generator that the build plugin runs: for 200 entities × 10 versions, a fifth of a
/// generation. A lock depends only on its version file, so with a render cache each version's
/// locks are kept beside the exact text of the file they came from, and a build that changed one
/// version file hashes only that file's entities.
public enum CurrentLocks {
    /// Each version's locks by entity name, by version name: taken from `cache` for a version
    /// whose file (`sources`, as the loader read them) has the bytes they were computed from,
    /// computed on all cores and kept in `cache` for the others.
    public static func of(_ model: Model, sources: [String: [UInt8]], cache: RenderCache?) -> [String: [String: LockHash]] {
        var locks: [String: [String: LockHash]] = [:]
        var missing: [SchemaVersion] = []
        for version in model.versions {
            if let cache, let source = sources[version.file],
               let text = cache.text(named: entryName(version), key: key(source)), let kept = parse(text, of: version) {
                locks[version.name] = kept
            } else {
                missing.append(version)
            }
        }
        let computed = missing.concurrentMap { version in
            let index = EntityIndex(version)
            return Dictionary(version.entities.map { ($0.name, LockFormat.current.lock(EntityShape($0, in: index))) },
                              uniquingKeysWith: { first, _ in first })
        }
        for (version, versionLocks) in zip(missing, computed) {
            locks[version.name] = versionLocks
            if let cache, let source = sources[version.file] {
                cache.store(text(versionLocks), named: entryName(version), key: key(source))
            }
        }
        return locks
    }

    /// The cache entry of a version's locks, apart from the rendered files' entries.
    private static func entryName(_ version: SchemaVersion) -> String {
        "locks-" + version.name
    }

    /// What the locks were computed from: the lock format and the version file's exact text.
    private static func key(_ source: [UInt8]) -> String {
        "lock format \(LockFormat.current.rawValue)\n" + String(decoding: source, as: UTF8.self)
    }

    /// One line per entity, `Name word word word word`, the words in hex.
    static func text(_ locks: [String: LockHash]) -> String {
        locks.sorted { $0.key < $1.key }.map { name, lock in
            ([name] + lock.words.map { String($0, radix: 16) }).joined(separator: " ") + "\n"
        }.joined()
    }

    /// The locks of `text`, or nil unless it holds one well-formed line for each of the version's
    /// entities and nothing else (a damaged entry is computed again).
    static func parse(_ text: String, of version: SchemaVersion) -> [String: LockHash]? {
        var locks: [String: LockHash] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            let words = fields.dropFirst().compactMap { UInt64($0, radix: 16) }
            guard fields.count == 5, words.count == 4 else { return nil }
            locks[String(fields[0])] = LockHash(words: words)
        }
        return Set(locks.keys) == Set(version.entities.map(\.name)) ? locks : nil
    }
}
