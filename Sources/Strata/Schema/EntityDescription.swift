/// One entity of one model version, as the generator emits it.
public struct EntityDescription: Sendable, Hashable {
    /// The entity's name; a root entity's table has this name.
    public let name: String
    /// Whether objects of exactly this entity are never created.
    public let isAbstract: Bool
    /// The parent entity, if any.
    public let parent: String?
    /// Own stored attributes, in declaration order (virtual attributes are not described).
    public let attributes: [AttributeDescription]
    /// Own relationships, in declaration order.
    public let relationships: [RelationshipDescription]
    /// Uniqueness groups, as storage keys.
    public let uniqueness: [[String]]
    /// The entity's version lock in this version (four SHA-256 words), when the description carries it.
    ///
    /// Generated descriptions always carry their lock, so a description shared by several versions
    /// is shared only while its stored shape, and so its lock, stays the same.
    public let lock: [UInt64]?
    /// Whether the entity's objects sync across devices (`sync:` in the model, resolved through
    /// its parents and its version).
    public let isSynced: Bool
    /// The attribute that holds the account each object belongs to (`owner:`), when the objects
    /// of a synced entity are per account.
    public let owner: String?

    /// Describes an entity.
    public init(_ name: String, abstract: Bool = false, parent: String? = nil, attributes: [AttributeDescription] = [],
                relationships: [RelationshipDescription] = [], uniqueness: [[String]] = [], sync: Bool = false, owner: String? = nil,
                lock: [UInt64]? = nil) {
        self.name = name
        self.isAbstract = abstract
        self.parent = parent
        self.attributes = attributes
        self.relationships = relationships
        self.uniqueness = uniqueness
        self.lock = lock
        self.isSynced = sync
        self.owner = owner
    }
}
