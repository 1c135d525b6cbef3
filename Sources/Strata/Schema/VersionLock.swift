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

    /// The lock as a Swift dictionary literal, as CoreStore prints it, to paste into code or read
    /// in a log: `["Animal": [0x1b59d511019695cf, 0xdeb97e86c5eff179, ...], "Dog": [...]]`.
    public var description: String {
        guard !entries.isEmpty else { return "[:]" }
        return "[" + entries.keys.sorted().map { name in
            "\"" + name + "\": [" + entries[name]!.map { word in
                let hex = String(word, radix: 16)
                return "0x" + String(repeating: "0", count: max(0, 16 - hex.count)) + hex
            }.joined(separator: ", ") + "]"
        }.joined(separator: ", ") + "]"
    }

    /// The lock in the compact text form a store's metadata records: `Animal:1b59…,…;Dog:…`.
    public var metadataText: String {
        entries.keys.sorted().map { name in
            name + ":" + entries[name]!.map { String($0, radix: 16) }.joined(separator: ",")
        }.joined(separator: ";")
    }

    /// Reads either text form: ``description``'s dictionary literal or ``metadataText``; nil when
    /// `text` is neither.
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
