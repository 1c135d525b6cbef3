/// Whether a relationship points at one object or many, and whether the many keep an order.
public enum RelationshipKind: String, CaseIterable, Hashable, Sendable, Codable {
    /// One object or nil.
    case toOne
    /// A set of objects.
    case unordered
    /// An array of objects whose order is stored.
    case ordered

    /// Whether the relationship holds many objects.
    public var isToMany: Bool { self != .toOne }
}

/// What deleting the source object does to the objects it points at.
public enum DeleteRule: String, CaseIterable, Hashable, Sendable, Codable {
    /// The destinations stay; their inverse no longer points back.
    case nullify
    /// The destinations are deleted too.
    case cascade
    /// Deleting the source fails while it has destinations.
    case deny
}

/// A link from one entity to another, always declared together with its inverse.
public struct Relationship: Hashable, Sendable {
    /// The Swift name.
    public var name: String
    /// Where the relationship is declared.
    public var location: SourceLocation
    /// The entity pointed at.
    public var destination: String
    /// Where `destination` is written.
    public var destinationLocation: SourceLocation
    /// The relationship on the destination that points back.
    public var inverse: String
    /// Where `inverse` is written.
    public var inverseLocation: SourceLocation
    /// To-one, unordered or ordered to-many.
    public var kind: RelationshipKind
    /// What deleting the source does.
    public var deleteRule: DeleteRule
    /// For to-many relationships, the fewest destinations allowed.
    public var minCount: Int?
    /// For to-many relationships, the most destinations allowed.
    public var maxCount: Int?
    /// The column (to-one) or join-table column name; the Swift name unless `storageKey` says otherwise.
    public var storageKey: String
    /// The `doc:` text, the generated property's documentation. Not part of the lock.
    public var doc: String?
    /// `hashModifier:` text: part of the lock and nothing else (see `Attribute.hashModifier`).
    public var hashModifier: String?

    /// Creates a relationship; the storage key defaults to the name.
    public init(
        name: String, location: SourceLocation, destination: String, destinationLocation: SourceLocation,
        inverse: String, inverseLocation: SourceLocation, kind: RelationshipKind = .toOne,
        deleteRule: DeleteRule = .nullify, minCount: Int? = nil, maxCount: Int? = nil, storageKey: String? = nil
    ) {
        self.name = name
        self.location = location
        self.destination = destination
        self.destinationLocation = destinationLocation
        self.inverse = inverse
        self.inverseLocation = inverseLocation
        self.kind = kind
        self.deleteRule = deleteRule
        self.minCount = minCount
        self.maxCount = maxCount
        self.storageKey = storageKey ?? name
    }
}
