/// A version's lock: each entity's SHA-256 lock, four 64-bit words, as `strata lock` writes them.
public struct VersionLock: Sendable, Hashable, ExpressibleByDictionaryLiteral, LosslessStringConvertible {
    /// Entity name to its four words.
    public let entries: [String: [UInt64]]

    /// `["Person": [0x..., 0x..., 0x..., 0x...], ...]`.
    public init(dictionaryLiteral elements: (String, [UInt64])...) {
        entries = Dictionary(elements, uniquingKeysWith: { first, _ in first })
    }

    /// Wraps a dictionary.
    public init(_ entries: [String: [UInt64]]) {
        self.entries = entries
    }

    /// The lock in the text form stored in a store's metadata.
    public var description: String {
        entries.keys.sorted().map { name in
            name + ":" + entries[name]!.map { String($0, radix: 16) }.joined(separator: ",")
        }.joined(separator: ";")
    }

    /// Reads the text form of ``description``; nil when `text` is not one.
    public init?(_ text: String) {
        var entries: [String: [UInt64]] = [:]
        for entry in text.split(separator: ";") {
            let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, entries[String(parts[0])] == nil else { return nil }
            let words = parts[1].split(separator: ",", omittingEmptySubsequences: false).map { UInt64($0, radix: 16) }
            guard !words.isEmpty, words.allSatisfy({ $0 != nil }) else { return nil }
            entries[String(parts[0])] = words.compactMap { $0 }
        }
        self.entries = entries
    }
}
