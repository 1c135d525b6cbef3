/// Where an object's row is: which storage, which table, which row. Internal and `Sendable`.
struct ObjectKey: Hashable, Sendable, Codable {
    let storage: Int32
    let table: Int32
    let rowID: Int64
}

/// A typed, `Sendable` reference to a stored object: pass it across threads and actors, and
/// turn it back into an object with `fetchExisting` in the context that needs one.
public struct ObjectID<Entity: StrataObject>: Hashable, Sendable, Codable, CustomStringConvertible {
    let key: ObjectKey
    /// The object's entity (the entity of `Entity`, or one of its subentities).
    public let entityName: String

    init(key: ObjectKey, entityName: String) {
        self.key = key
        self.entityName = entityName
    }

    /// The object's integer row id, unique within its table.
    public var rowID: Int64 { key.rowID }

    /// `Person#12`.
    public var description: String { "\(entityName)#\(key.rowID)" }

    /// The same object as an ID of one of its parent entities.
    public func upcast<Parent: StrataObject>(to type: Parent.Type = Parent.self) -> ObjectID<Parent> {
        ObjectID<Parent>(key: key, entityName: entityName)
    }
}
