/// An entity whose objects can be created from import sources. The generator makes every entity
/// with an `import:` block conform, with its `ImportPayload` as the source; a conformance written
/// by hand may take any source type, such as `[String: Any]` from `JSONSerialization`.
public protocol ImportableObject: StrataObject {
    /// What one object is imported from: a generated `ImportPayload` (`Decodable` and `Sendable`,
    /// so it can be decoded on any actor and passed into a transaction), a `[String: Any]`, or
    /// any type of your own.
    associatedtype ImportSource

    /// Whether a source should become an object; the default imports every source.
    static func shouldInsert(from source: ImportSource, in transaction: BaseDataTransaction) -> Bool

    /// Fills a new object from its source.
    func didInsert(from source: ImportSource, in transaction: BaseDataTransaction) throws
}

extension ImportableObject {
    /// Imports every source.
    public static func shouldInsert(from source: ImportSource, in transaction: BaseDataTransaction) -> Bool { true }
}

/// An importable entity whose objects are identified across imports by a unique attribute: an
/// import updates the object with a source's ID when there is one, and creates it otherwise.
public protocol ImportableUniqueObject: ImportableObject {
    /// The type of the unique attribute as the entity declares it: the ID type itself, or an
    /// optional of it when the model lets the attribute be nil.
    associatedtype UniqueIDAttribute: ImportUniqueIDStorage

    /// The unique attribute.
    static var uniqueIDKeyPath: ReferenceWritableKeyPath<Self, UniqueIDAttribute> { get }

    /// The ID a source carries; nil skips the source (and counts it in an `ImportReport`).
    static func uniqueID(from source: ImportSource, in transaction: BaseDataTransaction) throws -> UniqueIDValue?

    /// Whether an existing object should be updated from a source; the default updates.
    static func shouldUpdate(from source: ImportSource, in transaction: BaseDataTransaction) -> Bool

    /// Updates an existing object from its source.
    func update(from source: ImportSource, in transaction: BaseDataTransaction) throws
}

extension ImportableUniqueObject {
    /// The type of the IDs that identify objects: the unique attribute's type without its optional.
    public typealias UniqueIDValue = UniqueIDAttribute.ID

    /// Updates every existing object.
    public static func shouldUpdate(from source: ImportSource, in transaction: BaseDataTransaction) -> Bool { true }

    /// Fills a new object as an update would, as CoreStore does: override it when a new object
    /// needs more than an existing one.
    public func didInsert(from source: ImportSource, in transaction: BaseDataTransaction) throws {
        try update(from: source, in: transaction)
    }

    /// The object's value of the unique attribute.
    public var uniqueIDValue: UniqueIDAttribute {
        get { self[keyPath: Self.uniqueIDKeyPath] }
        set { self[keyPath: Self.uniqueIDKeyPath] = newValue }
    }
}
