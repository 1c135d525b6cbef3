/// Bounds that keep reading a hostile file fast and small.
public struct YAMLLimits: Hashable, Sendable {
    /// The largest file read, in bytes. Model files are a few hundred kilobytes at most.
    public var maximumFileSize: Int
    /// The deepest nesting of mappings and sequences.
    public var maximumDepth: Int
    /// The most nodes a document may hold once aliases are expanded ("billion laughs" guard).
    public var maximumExpandedNodes: Int

    /// Creates limits.
    public init(maximumFileSize: Int, maximumDepth: Int, maximumExpandedNodes: Int) {
        self.maximumFileSize = maximumFileSize
        self.maximumDepth = maximumDepth
        self.maximumExpandedNodes = maximumExpandedNodes
    }

    /// 8 MiB, 64 levels, 1,000,000 nodes: far beyond any real model, small enough to stay instant.
    public static let standard = YAMLLimits(
        maximumFileSize: 8 * 1024 * 1024,
        maximumDepth: 64,
        maximumExpandedNodes: 1_000_000
    )
}
