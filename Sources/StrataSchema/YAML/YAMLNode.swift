/// A node of a parsed YAML document, positioned in its file.
///
/// The tree is a plain value: aliases are expanded into copies of their anchored node (the
/// reader bounds the expanded size), and merge keys (`<<`) are already applied.
public struct YAMLNode: Hashable, Sendable {
    /// A scalar's text and how it was written.
    public struct Scalar: Hashable, Sendable {
        /// The scalar's text, after YAML unescaping and folding.
        public var text: String
        /// Whether it was written without quotes or a block indicator (only plain scalars resolve to
        /// null, booleans and numbers).
        public var isPlain: Bool
        /// An explicit tag such as `tag:yaml.org,2002:str`, if the author wrote one.
        public var tag: String?
    }

    /// A key and its value in a mapping.
    public struct Entry: Hashable, Sendable {
        /// The key; the reader guarantees it is a scalar.
        public var key: YAMLNode
        /// The value.
        public var value: YAMLNode
    }

    /// What a node holds.
    public indirect enum Kind: Hashable, Sendable {
        /// Text.
        case scalar(Scalar)
        /// Keys and values, in file order, keys unique.
        case mapping([Entry])
        /// Items in file order.
        case sequence([YAMLNode])
    }

    /// Where the node starts.
    public var location: SourceLocation
    /// What the node holds.
    public var kind: Kind
    /// Whether a mapping or sequence was written in flow style (`{...}` / `[...]`).
    public var isFlow: Bool
    /// Unicode-scalar offsets of the node's first character and of the character just past it.
    public var span: Range<Int>

    /// Creates a node.
    public init(location: SourceLocation, kind: Kind, isFlow: Bool = false, span: Range<Int> = 0..<0) {
        self.location = location
        self.kind = kind
        self.isFlow = isFlow
        self.span = span
    }

    /// The scalar's text, or nil for mappings and sequences.
    public var scalarText: String? {
        if case .scalar(let scalar) = kind { return scalar.text }
        return nil
    }

    /// The entries of a mapping, or nil.
    public var entries: [Entry]? {
        if case .mapping(let entries) = kind { return entries }
        return nil
    }

    /// The items of a sequence, or nil.
    public var items: [YAMLNode]? {
        if case .sequence(let items) = kind { return items }
        return nil
    }

    /// The offset just past the node's last character of content. A block collection's own span
    /// runs on over the comments and blank lines after it; this stops at its last value.
    public var contentEnd: Int {
        guard !isFlow else { return span.upperBound }
        switch kind {
        case .scalar: return span.upperBound
        case .mapping(let entries): return entries.last.map { max($0.key.span.upperBound, $0.value.contentEnd) } ?? span.upperBound
        case .sequence(let items): return items.last?.contentEnd ?? span.upperBound
        }
    }

    /// The value for a scalar key of a mapping.
    public subscript(key: String) -> YAMLNode? {
        entry(forKey: key)?.value
    }

    /// The entry of a mapping whose key is the scalar `key`. A plain loop, since the parsers ask
    /// every mapping for each key they know: through a closure and copies of the entries, that
    /// was a fifth of reading a large model in the debug build the build plugin runs.
    public func entry(forKey key: String) -> Entry? {
        guard case .mapping(let entries) = kind else { return nil }
        var index = 0
        while index < entries.count {
            if case .scalar(let scalar) = entries[index].key.kind, scalar.text == key { return entries[index] }
            index += 1
        }
        return nil
    }

    /// Whether this is a plain scalar meaning null (`~`, `null`, or nothing at all).
    public var isNull: Bool {
        guard case .scalar(let scalar) = kind, scalar.isPlain, scalar.tag == nil else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.text)
    }

    /// A word for the node's kind in error messages: "a mapping", "a sequence", "a string", "null".
    public var kindDescription: String {
        switch kind {
        case .mapping: return "a mapping"
        case .sequence: return "a sequence"
        case .scalar(let scalar):
            if isNull { return "null" }
            if scalar.isPlain, ["true", "false", "True", "False", "TRUE", "FALSE"].contains(scalar.text) {
                return "a boolean"
            }
            if scalar.isPlain, Double(scalar.text) != nil { return "a number" }
            return "a string"
        }
    }
}
