/// An entity whose objects can be created from JSON-like sources (`[String: Any]`, as
/// `JSONSerialization` returns them). The generator makes entities with an `import:` block conform.
public protocol ImportableObject: StrataObject {
    /// Whether a source should become an object; the default imports every source.
    static func shouldInsert(from source: [String: Any], in transaction: BaseDataTransaction) -> Bool

    /// Fills a new object from its source.
    func didInsert(from source: [String: Any], in transaction: BaseDataTransaction) throws
}

extension ImportableObject {
    public static func shouldInsert(from source: [String: Any], in transaction: BaseDataTransaction) -> Bool { true }
}

/// An importable entity whose objects are identified across imports by a unique attribute: an
/// import updates the object with a source's ID when there is one, and creates it otherwise.
public protocol ImportableUniqueObject: ImportableObject {
    /// The type of the unique attribute.
    associatedtype UniqueIDValue: QueryableAttributeType & ImportConvertible & Hashable

    /// The unique attribute.
    static var uniqueIDKeyPath: ReferenceWritableKeyPath<Self, UniqueIDValue> { get }

    /// The ID a source carries; nil skips the source.
    static func uniqueID(from source: [String: Any], in transaction: BaseDataTransaction) throws -> UniqueIDValue?

    /// Whether an existing object should be updated from a source; the default updates.
    static func shouldUpdate(from source: [String: Any], in transaction: BaseDataTransaction) -> Bool

    /// Updates an existing object from its source.
    func update(from source: [String: Any], in transaction: BaseDataTransaction) throws
}

extension ImportableUniqueObject {
    public static func shouldUpdate(from source: [String: Any], in transaction: BaseDataTransaction) -> Bool { true }
}
