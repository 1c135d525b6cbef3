/// A name written in a model file together with where it was written.
public struct Located<Value: Hashable & Sendable>: Hashable, Sendable {
    /// The value.
    public var value: Value
    /// Where it was written.
    public var location: SourceLocation

    /// Pairs a value with its position.
    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

/// One `import:` key: which JSON key path fills which property.
public struct ImportKey: Hashable, Sendable {
    /// The property filled.
    public var property: Located<String>
    /// The JSON key path read, such as `full_name` or `owner.id`.
    public var keyPath: String

    /// Creates a key.
    public init(property: Located<String>, keyPath: String) {
        self.property = property
        self.keyPath = keyPath
    }
}

/// How JSON objects map onto an entity when importing.
public struct ImportSpec: Hashable, Sendable {
    /// The attribute whose value identifies an object across imports, if objects are uniqued.
    public var uniqueID: Located<String>?
    /// The keys, in file order.
    public var keys: [ImportKey]

    /// Creates an import block.
    public init(uniqueID: Located<String>?, keys: [ImportKey]) {
        self.uniqueID = uniqueID
        self.keys = keys
    }
}

/// A kind of object the model stores (or, when abstract, a parent other entities share).
public struct Entity: Hashable, Sendable {
    /// The Swift type name, also the table name of a root entity.
    public var name: String
    /// Where the entity is declared.
    public var location: SourceLocation
    /// Whether the entity is never instantiated itself.
    public var isAbstract: Bool
    /// The parent entity, if this entity inherits.
    public var parent: Located<String>?
    /// Attributes in file order.
    public var attributes: [Attribute]
    /// Relationships in file order.
    public var relationships: [Relationship]
    /// Groups of attributes whose values together are unique.
    public var uniqueness: [[Located<String>]]
    /// The `import:` block, if any.
    public var importSpec: ImportSpec?
    /// The `doc:` text, the generated class's documentation. Not part of the lock.
    public var doc: String?
    /// `hashModifier:` text: part of the lock and nothing else (see `Attribute.hashModifier`).
    public var hashModifier: String?
    /// `sync:` as the entity itself says it; nil when it says nothing.
    public var sync: Located<Bool>?
    /// Whether the entity's objects sync across devices: its own `sync:`, else its parent's,
    /// else its version's. The parser resolves it once the whole version is read.
    public var isSynced = false
    /// `owner:`: the attribute that holds the account each object belongs to, when the objects of
    /// a synced entity are per account.
    public var owner: Located<String>?

    /// Creates an entity.
    public init(
        name: String, location: SourceLocation, isAbstract: Bool = false, parent: Located<String>? = nil,
        attributes: [Attribute] = [], relationships: [Relationship] = [], uniqueness: [[Located<String>]] = [],
        importSpec: ImportSpec? = nil
    ) {
        self.name = name
        self.location = location
        self.isAbstract = isAbstract
        self.parent = parent
        self.attributes = attributes
        self.relationships = relationships
        self.uniqueness = uniqueness
        self.importSpec = importSpec
    }

    /// The attribute with a Swift name.
    public func attribute(named name: String) -> Attribute? { attributes.first { $0.name == name } }

    /// The relationship with a Swift name.
    public func relationship(named name: String) -> Relationship? { relationships.first { $0.name == name } }

    /// Every property name, attributes first.
    public var propertyNames: [String] { attributes.map(\.name) + relationships.map(\.name) }
}
