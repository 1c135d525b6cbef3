/// A typed value an entity stores (or, when virtual, that the app computes; when transient, that
/// each object keeps in memory only).
public struct Attribute: Hashable, Sendable {
    /// The Swift name.
    public var name: String
    /// Where the attribute is declared.
    public var location: SourceLocation
    /// The stored type.
    public var type: AttributeType
    /// Whether the value may be nil.
    public var isOptional: Bool
    /// The default, in its canonical text form (as the model loader normalises it), if any.
    public var defaultValue: String?
    /// A per-insert initial value, if any.
    public var initial: InitialValue?
    /// The column name; the Swift name unless `storageKey` says otherwise.
    public var storageKey: String
    /// Whether the column is indexed.
    public var isIndexed: Bool
    /// Whether no two objects may share a value.
    public var isUnique: Bool
    /// Whether the attribute is computed by the app and never stored.
    public var isVirtual: Bool
    /// Whether the attribute is kept in memory with each object and never stored (Core Data's
    /// transient attributes): the generated class holds it, reset when the object is read.
    public var isTransient = false
    /// Whether the attribute has a column: neither virtual nor transient.
    public var isStored: Bool { !isVirtual && !isTransient }
    /// What makes an attribute that is not stored so, for messages: `virtual` or `transient`.
    public var notStoredKind: String? { isVirtual ? "virtual" : isTransient ? "transient" : nil }
    /// For `Codable` attributes, the Swift type stored.
    public var swiftType: String?
    /// For `Codable` attributes, how values are encoded.
    public var coder: CodableCoder?
    /// The `doc:` text, the generated property's documentation. Not part of the lock.
    public var doc: String?
    /// `merge:`: how concurrent changes on several devices combine (a counter's increments add
    /// up); nil for the rule every attribute follows, the last writer wins.
    public var merge: MergeRule?
    /// `hashModifier:` text: part of the lock and nothing else, so that a change the stored shape
    /// does not show (a value's meaning or encoding) still makes a new version and a step.
    public var hashModifier: String?

    /// Creates an attribute; the storage key defaults to the name.
    public init(
        name: String, location: SourceLocation, type: AttributeType, isOptional: Bool = false,
        defaultValue: String? = nil, initial: InitialValue? = nil, storageKey: String? = nil,
        isIndexed: Bool = false, isUnique: Bool = false, isVirtual: Bool = false,
        swiftType: String? = nil, coder: CodableCoder? = nil
    ) {
        self.name = name
        self.location = location
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.initial = initial
        self.storageKey = storageKey ?? name
        self.isIndexed = isIndexed
        self.isUnique = isUnique
        self.isVirtual = isVirtual
        self.swiftType = swiftType
        self.coder = coder
    }
}

/// How concurrent changes of a synced attribute combine, besides the last writer winning.
public enum MergeRule: String, CaseIterable, Hashable, Sendable, Codable {
    /// An integer counter: the increments made on every device add up.
    case add
}
