/// Where an object's row is: which storage, which table, which row. Internal and `Sendable`.
struct ObjectKey: Hashable, Sendable {
    let storage: Int32
    let table: Int32
    let rowID: Int64

    /// The storage and table of a key made from a row id alone (decoded, or from a request),
    /// which the context resolves from the entity's name when it fetches the object.
    static let detached: Int32 = -2

    /// Whether the key came from a row id alone.
    var isDetached: Bool { storage == Self.detached }
}

/// A typed, `Sendable` reference to a stored object: pass it across threads and actors, and
/// turn it back into an object with `fetchExisting` in the context that needs one.
///
/// Two IDs are equal when they name the same entity and row id. In JSON an ID is its row id, a
/// whole number (`"objectID": 12`): a decoded ID, or one made with ``init(rowID:)`` from a
/// request's path, names the object of `Entity` with that row id, and `fetchExisting` finds it in
/// the storage of the stack that holds `Entity` (nil when several do).
public struct ObjectID<Entity: StrataObject>: Hashable, Sendable, Codable, CustomStringConvertible {
    let key: ObjectKey
    /// The object's entity (the entity of `Entity`, or one of its subentities).
    public let entityName: String

    init(key: ObjectKey, entityName: String) {
        self.key = key
        self.entityName = entityName
    }

    /// The ID of the `Entity` object with the row id `rowID` (one a client sent, for example),
    /// to look up with `fetchExisting`.
    public init(rowID: Int64) {
        self.init(key: ObjectKey(storage: ObjectKey.detached, table: ObjectKey.detached, rowID: rowID), entityName: Entity.entityName)
    }

    /// Decodes an ID from its row id (see ``init(rowID:)``).
    public init(from decoder: any Decoder) throws {
        self.init(rowID: try decoder.singleValueContainer().decode(Int64.self))
    }

    /// Encodes the ID as its row id, a whole number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(key.rowID)
    }

    /// Whether both IDs name the same entity and row id.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.key.rowID == rhs.key.rowID && lhs.entityName == rhs.entityName
    }

    /// Hashes the row id (equal IDs have equal row ids; the entity's name is left to `==`, which
    /// keeps hashing as cheap as an integer's).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key.rowID)
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
