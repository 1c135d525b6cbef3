/// The order versions follow each other: `[V1, V2, V3]` or `["V1": "V3", "V2": "V3"]`.
public struct MigrationChain: Sendable, Hashable, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    /// Each version's successor.
    public let successors: [String: String]
    /// Every version named.
    public let versions: [String]

    /// A linear chain, oldest first.
    public init(arrayLiteral elements: String...) {
        self.init(elements)
    }

    /// A linear chain, oldest first.
    public init(_ elements: [String]) {
        versions = elements
        successors = Dictionary(zip(elements, elements.dropFirst()).map { ($0, $1) }, uniquingKeysWith: { first, _ in first })
    }

    /// A tree: each key migrates to its value.
    public init(dictionaryLiteral elements: (String, String)...) {
        successors = Dictionary(elements, uniquingKeysWith: { first, _ in first })
        var names: [String] = []
        for (from, to) in elements {
            for name in [from, to] where !names.contains(name) { names.append(name) }
        }
        versions = names
    }
}
