/// The `Sendable` ID of a stored object of any entity, as change notifications report it.
public struct AnyObjectID: Hashable, Sendable, CustomStringConvertible {
    let key: ObjectKey
    /// The object's entity.
    public let entityName: String

    init(key: ObjectKey, entityName: String) {
        self.key = key
        self.entityName = entityName
    }

    /// The untyped form of a typed ID.
    public init<T: StrataObject>(_ id: ObjectID<T>) {
        self.init(key: id.key, entityName: id.entityName)
    }

    /// The row id within the entity's table.
    public var rowID: Int64 { key.rowID }

    /// The typed ID, for an entity that is `T` or one of its subentities; the caller knows which
    /// (for example from ``entityName``).
    public func typed<T: StrataObject>(as type: T.Type = T.self) -> ObjectID<T> {
        ObjectID(key: key, entityName: entityName)
    }

    /// Whether both IDs name the same entity and row id, as ``ObjectID`` compares.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.key.rowID == rhs.key.rowID && lhs.entityName == rhs.entityName
    }

    /// Hashes the row id (equal IDs have equal row ids; the entity's name is left to `==`, which
    /// keeps hashing as cheap as an integer's).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key.rowID)
    }

    /// `Person#3`.
    public var description: String { "\(entityName)#\(key.rowID)" }
}
