/// What every generated `<Entity>.Snapshot` is: an object's stored values as a `Sendable`,
/// `Hashable` value, made from an object in its own context. ``ObjectPublisher`` delivers them.
public protocol EntitySnapshot: Sendable, Hashable {
    /// The entity class the snapshot is taken of.
    associatedtype Object: StrataObject
    /// The object's ID.
    var objectID: ObjectID<Object> { get }
    /// The current values of an object.
    init(_ object: Object)
}
