import Strata

/// One object of a model version, as plain values: what a migration test writes into a store at
/// an old version, for which the app has no classes any more.
public struct SeedObject: Sendable {
    /// The entity, by its name in that version.
    public var entity: String
    /// The object's row id; relationships refer to objects by it.
    public var id: Int64
    /// Stored attributes by property name; a missing one takes its default, or nil without one.
    public var attributes: [String: any QueryableAttributeType]
    /// Relationships by name: the ids of the destination objects (a to-one takes one).
    public var relationships: [String: [Int64]]

    /// An object of `entity` with row id `id`.
    public init(_ entity: String, id: Int64, _ attributes: [String: any QueryableAttributeType] = [:], relationships: [String: [Int64]] = [:]) {
        self.entity = entity
        self.id = id
        self.attributes = attributes
        self.relationships = relationships
    }
}
