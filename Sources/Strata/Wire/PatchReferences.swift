import Foundation

/// A to-one relationship's field in a ``Patch`` named an object that is not there (or that the
/// transaction cannot see): `the field 'master' names no Person with the personID 99`. A server
/// answers it as "not found"; nothing was changed.
public struct UnknownReference: Error, Sendable, Equatable, CustomStringConvertible {
    /// The relationship's field.
    public let field: String
    /// The related entity.
    public let entity: String
    /// What identifies its objects: its unique attribute's name, or `row id`.
    public let key: String
    /// The ID the body gave, as text.
    public let id: String

    /// A reference to the `entity` object whose `key` is `id`, from `field`.
    public init(field: String, entity: String, key: String, id: String) {
        self.field = field
        self.entity = entity
        self.key = key
        self.id = id
    }

    /// `the field 'master' names no Person with the personID 99`.
    public var description: String {
        "the field '\(field)' names no \(entity) with the \(key) \(id)"
    }
}

/// How a patch reads and resolves a to-one relationship: by the related object's unique ID
/// when its entity's `import:` block names one that cannot be nil (as snapshots give it), else
/// by its row id.
enum PatchReferences {
    /// The type of the IDs that name objects of `destination`, and the key's name.
    static func idType(of destination: StrataObject.Type) -> (type: any Decodable.Type, key: String) {
        if let unique = destination as? any ImportableUniqueObject.Type, let found = uniqueIDType(unique) { return found }
        return (Int64.self, "row id")
    }

    private static func uniqueIDType<T: ImportableUniqueObject>(_ type: T.Type) -> (type: any Decodable.Type, key: String)? {
        guard !(T.UniqueIDAttribute.self is any OptionalPayload.Type), let decodable = T.UniqueIDValue.self as? any Decodable.Type,
              let name = T.propertyName(for: T.uniqueIDKeyPath) else { return nil }
        return (decodable, name)
    }

    /// The object of `destination` that `id` names, in `context`; nil when there is none.
    static func resolve(_ id: Any, destination: StrataObject.Type, in context: ObjectContext) throws -> StrataObject? {
        if let unique = destination as? any ImportableUniqueObject.Type, uniqueIDType(unique) != nil {
            return try resolveUnique(id, unique, in: context)
        }
        guard let rowID = id as? Int64 else { return nil }
        let key = ObjectKey(storage: ObjectKey.detached, table: ObjectKey.detached, rowID: rowID)
        let found = try context.guardingReads { () throws(StrataError) in try context.existingObject(key, entityName: destination.entityName) }
        // The row may be another entity's of the same table.
        guard let found, context.core.layout.entity(destination.entityName)?.subtree.contains(type(of: found).entityName) == true else {
            return nil
        }
        return found
    }

    private static func resolveUnique<T: ImportableUniqueObject>(_ id: Any, _ type: T.Type, in context: ObjectContext) throws -> StrataObject? {
        guard let id = id as? T.UniqueIDValue else { return nil }
        let fetch = From<T>().where(Where<T>.uniqueIDs(T.uniqueIDKeyPath, in: [id][...]))
        return try context.guardingReads { () throws(StrataError) in try context.fetch(fetch.fetchChain) }.first
    }
}
