/// The four 64-bit words of one entity's SHA-256 lock, printed as CoreStore prints them.
public struct LockHash: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The digest as four big-endian words.
    public var words: [UInt64]

    /// Wraps four words.
    public init(words: [UInt64]) {
        precondition(words.count == 4, "a lock hash has four words")
        self.words = words
    }

    /// Splits a 32-byte digest into four big-endian words.
    public init(digest: [UInt8]) {
        precondition(digest.count == 32, "a SHA-256 digest has 32 bytes")
        self.words = (0..<4).map { word in
            digest[(word * 8)..<(word * 8 + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
    }

    /// `[0x1b59d511019695cf, 0xdeb97e86c5eff179, 0x01cfd80745646cb3, 0x4ff99416175b5b9a]`.
    public var description: String {
        "[" + words.map(Self.hex).joined(separator: ", ") + "]"
    }

    /// One word as `0x` followed by exactly sixteen lowercase hex digits.
    public static func hex(_ word: UInt64) -> String {
        let digits = String(word, radix: 16)
        return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// The `versionLock:` block of a version file, as written.
public struct VersionLock: Hashable, Sendable {
    /// Entity name to its lock, with where each entry is written.
    public var entries: [String: Located<LockHash>]
    /// Where the block starts.
    public var location: SourceLocation

    /// Creates a lock block.
    public init(entries: [String: Located<LockHash>], location: SourceLocation) {
        self.entries = entries
        self.location = location
    }
}
