/// What a unique import did with its sources.
public struct ImportReport<T: StrataObject> {
    /// The imported objects, each once, in the order its ID first appears.
    public var objects: [T] = []
    /// How many objects were created.
    public var inserted = 0
    /// How many existing objects were updated.
    public var updated = 0
    /// How many sources carried no ID (a generated payload whose ID key is null or absent, or a
    /// `uniqueID(from:in:)` that returned nil) and were skipped. An import that must refuse such
    /// sources checks this count and throws, which rolls the transaction back.
    public var skippedWithoutID = 0
    /// How many sources `shouldInsert` or `shouldUpdate` declined.
    public var declined = 0
    /// How many sources were superseded by a later source with the same ID in the same array.
    public var superseded = 0

    /// An empty report.
    @inlinable
    public init() {}
}
