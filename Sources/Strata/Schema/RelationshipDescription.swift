/// To-one, or to-many with or without a stored order.
public enum RelationshipKind: String, Sendable, Hashable {
    /// One object or nil: a foreign-key column.
    case toOne
    /// A set of objects.
    case unordered
    /// An array of objects whose order is stored.
    case ordered

    /// Whether the relationship holds many objects.
    public var isToMany: Bool { self != .toOne }
}

/// What deleting the source does to its destinations.
public enum DeleteRule: String, Sendable, Hashable {
    /// The destinations stay; their inverse stops pointing back.
    case nullify
    /// The destinations are deleted too.
    case cascade
    /// Deleting fails at commit while destinations remain.
    case deny
}

/// One relationship of an entity.
public struct RelationshipDescription: Sendable, Hashable {
    /// The Swift name.
    public let name: String
    /// The column (to-one) or link-table name part (many-to-many).
    public let storageKey: String
    /// The destination entity.
    public let destination: String
    /// The relationship on the destination pointing back.
    public let inverse: String
    /// To-one, unordered or ordered.
    public let kind: RelationshipKind
    /// What deleting the source does.
    public let deleteRule: DeleteRule
    /// Fewest destinations (to-many).
    public let minCount: Int?
    /// Most destinations (to-many).
    public let maxCount: Int?

    /// Describes a relationship; `storageKey` defaults to the name.
    public init(_ name: String, destination: String, inverse: String, kind: RelationshipKind = .toOne,
                deleteRule: DeleteRule = .nullify, minCount: Int? = nil, maxCount: Int? = nil, storageKey: String? = nil) {
        self.name = name
        self.storageKey = storageKey ?? name
        self.destination = destination
        self.inverse = inverse
        self.kind = kind
        self.deleteRule = deleteRule
        self.minCount = minCount
        self.maxCount = maxCount
    }
}
