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

    /// The lock as a Swift dictionary literal in CoreStore's printed layout, to paste into code or
    /// diff in a review: one entity a line between `[` and `]`, indented by four spaces, names in
    /// order, each word as Swift prints a `UInt64` in hexadecimal (no leading zeros); `[:]` when
    /// empty.
    ///
    /// ```
    /// [
    ///     "Animal": [0x1b59d511019695cf, 0xdeb97e86c5eff179, 0x1cfd80745646cb3, 0x4ff99416175b5b9a],
    ///     "Dog": [0xe3f0afeb109b283a, 0x29998d292938eb61, 0x6aab788333cfc2a3, 0x492ff1d295910ea7]
    /// ]
    /// ```
    public var description: String {
        guard !entries.isEmpty else { return "[:]" }
        let lines = entries.keys.sorted().map { name in
            "    \"" + name + "\": [" + entries[name]!.map { "0x" + String($0, radix: 16) }.joined(separator: ", ") + "]"
        }
        return "[\n" + lines.joined(separator: ",\n") + "\n]"
    }

    /// The lock in the compact text form a store's metadata records: `Animal:1b59…,…;Dog:…`.
    public var metadataText: String {
        entries.keys.sorted().map { name in
            name + ":" + entries[name]!.map { String($0, radix: 16) }.joined(separator: ",")
        }.joined(separator: ";")
    }

    /// Reads either text form: a dictionary literal (``description``'s layout, the one-line layout
    /// with zero-padded words that earlier versions printed, or any other spacing) or
    /// ``metadataText``; nil when `text` is neither.
    public init?(_ text: String) {
        guard let entries = text.hasPrefix("[") ? Self.parseLiteral(text) : Self.parseMetadata(text) else { return nil }
        self.entries = entries
    }

    private static func parseMetadata(_ text: String) -> [String: [UInt64]]? {
        var entries: [String: [UInt64]] = [:]
        for entry in text.split(separator: ";") {
            let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, entries[String(parts[0])] == nil else { return nil }
            let words = parts[1].split(separator: ",", omittingEmptySubsequences: false).map { UInt64($0, radix: 16) }
            guard !words.isEmpty, words.allSatisfy({ $0 != nil }) else { return nil }
            entries[String(parts[0])] = words.compactMap { $0 }
        }
        return entries
    }

    /// `["Name": [0x…, …], …]`, spaces anywhere, or `[:]`.
    private static func parseLiteral(_ text: String) -> [String: [UInt64]]? {
        let body = text.filter { !$0.isWhitespace }
        guard body.hasPrefix("["), body.hasSuffix("]"), body.count >= 2 else { return nil }
        let inner = body.dropFirst().dropLast()
        if inner == ":" { return [:] }
        var entries: [String: [UInt64]] = [:]
        for entry in inner.components(separatedBy: "],").map({ $0.hasSuffix("]") ? String($0.dropLast()) : $0 }) {
            let parts = entry.components(separatedBy: ":[")
            guard parts.count == 2, parts[0].count > 2, parts[0].hasPrefix("\""), parts[0].hasSuffix("\"") else { return nil }
            let name = String(parts[0].dropFirst().dropLast())
            let words = parts[1].split(separator: ",", omittingEmptySubsequences: false).map { word -> UInt64? in
                word.hasPrefix("0x") ? UInt64(word.dropFirst(2), radix: 16) : UInt64(word)
            }
            guard entries[name] == nil, !words.isEmpty, words.allSatisfy({ $0 != nil }) else { return nil }
            entries[name] = words.compactMap { $0 }
        }
        return entries
    }
}
