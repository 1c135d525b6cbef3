/// What one commit changed, as `Sendable` values: by entity, the objects inserted, updated (with
/// the names of the properties that changed) and deleted. `DataStack.changes` delivers one per
/// commit of the stack, in commit order.
public struct CommitChanges: Sendable, Equatable {
    /// What a commit changed in one entity (objects of its subentities are listed under their own).
    public struct EntityChanges: Sendable, Equatable {
        /// Objects created, in creation order.
        public var inserted: [AnyObjectID] = []
        /// Objects changed, each with the names of the attributes and relationships that changed
        /// (a to-many relationship changes when an object is added to or removed from it, on
        /// either side).
        public var updated: [AnyObjectID: Set<String>] = [:]
        /// Objects deleted, cascaded deletions included.
        public var deleted: [AnyObjectID] = []
    }

    /// Changes by entity name; entities the commit did not touch are absent.
    public var entities: [String: EntityChanges] = [:]
    /// Whether any relationship changed (to-many relationships and link rows included).
    public var relationshipsChanged = false

    /// The changes of one entity (not of its subentities), or nil when the commit left it alone.
    public func changes<T: StrataObject>(of type: T.Type) -> EntityChanges? {
        entities[T.entityName]
    }

    /// Whether the commit touched any object of `entityNames`.
    public func touches(_ entityNames: Set<String>) -> Bool {
        !entityNames.isDisjoint(with: entities.keys)
    }
}
