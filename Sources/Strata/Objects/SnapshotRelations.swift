/// How generated snapshots give relationships: by the related objects' IDs. Each function is a
/// single generic candidate, so that a model's many snapshot initializers stay cheap to
/// type-check.
public enum SnapshotRelations {
    /// A to-one relationship's row id; nil when it is empty.
    public static func rowID<T: StrataObject>(of object: T?) -> Int64? {
        object?.objectID(as: T.self).rowID
    }

    /// A to-one relationship's unique ID (`id` reads it); nil when it is empty.
    public static func uniqueID<T: StrataObject, ID>(of object: T?, _ id: (T) -> ID) -> ID? {
        object.map(id)
    }

    /// An unordered to-many relationship's row ids, ascending; nil unless `included`.
    public static func rowIDs<T: StrataObject>(of objects: Set<T>, if included: Bool) -> [Int64]? {
        included ? objects.map { $0.objectID(as: T.self).rowID }.sorted() : nil
    }

    /// An unordered to-many relationship's unique IDs, in the order of the members' row ids; nil
    /// unless `included`.
    public static func uniqueIDs<T: StrataObject, ID>(of objects: Set<T>, if included: Bool, _ id: (T) -> ID) -> [ID]? {
        included ? objects.sorted { $0.objectID(as: T.self).rowID < $1.objectID(as: T.self).rowID }.map(id) : nil
    }

    /// An ordered to-many relationship's row ids, in its order; nil unless `included`.
    public static func orderedRowIDs<T: StrataObject>(of objects: [T], if included: Bool) -> [Int64]? {
        included ? objects.map { $0.objectID(as: T.self).rowID } : nil
    }

    /// An ordered to-many relationship's unique IDs, in its order; nil unless `included`.
    public static func orderedUniqueIDs<T: StrataObject, ID>(of objects: [T], if included: Bool, _ id: (T) -> ID) -> [ID]? {
        included ? objects.map(id) : nil
    }
}
