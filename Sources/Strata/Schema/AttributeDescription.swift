/// The stored type of an attribute, as the generator emits it.
public enum AttributeType: String, Sendable, Hashable, CaseIterable {
    /// `Bool`, stored as INTEGER 0 or 1.
    case bool = "Bool"
    /// `Int16`, stored as INTEGER.
    case int16 = "Int16"
    /// `Int32`, stored as INTEGER.
    case int32 = "Int32"
    /// `Int64`, stored as INTEGER.
    case int64 = "Int64"
    /// `Int`, stored as INTEGER.
    case int = "Int"
    /// `Double`, stored as REAL.
    case double = "Double"
    /// `Float`, stored as REAL.
    case float = "Float"
    /// `Decimal`, stored as its exact TEXT.
    case decimal = "Decimal"
    /// `String`, stored as TEXT.
    case string = "String"
    /// `Date`, stored as a REAL value: seconds since 2001-01-01T00:00:00Z, the interval `Date`
    /// itself holds, so every date reads back with the same bits.
    case date = "Date"
    /// `Data`, stored as BLOB.
    case data = "Data"
    /// `UUID`, stored as a 16-byte BLOB.
    case uuid = "UUID"
    /// `URL`, stored as TEXT.
    case url = "URL"
    /// A `Codable` Swift type, stored as an encoded BLOB.
    case codable = "Codable"
}

/// A value computed for each inserted object.
public enum InitialValue: String, Sendable, Hashable {
    /// The current date (`initial: now`).
    case now
    /// A new random UUID.
    case uuid
}

/// One stored attribute of an entity.
public struct AttributeDescription: Sendable, Hashable {
    /// The Swift name.
    public let name: String
    /// The column name.
    public let storageKey: String
    /// The stored type.
    public let type: AttributeType
    /// Whether nil is allowed.
    public let isOptional: Bool
    /// Whether a value must be assigned before saving (non-optional, no default, no initial value).
    public let isRequired: Bool
    /// Whether the column is indexed.
    public let isIndexed: Bool
    /// Whether values are unique.
    public let isUnique: Bool
    /// The default value as stored, if the model gives one: what a migration writes into rows that
    /// existed before the attribute did, or that held nil before it became required.
    public let defaultValue: SQLValue?
    /// The value computed for each new object, if the model gives one: a migration computes it for
    /// rows that existed before the attribute did (`now`: the time of the migration; `uuid`: a new
    /// one per row).
    public let initialValue: InitialValue?
    /// How concurrent changes from several devices combine (`merge:` in the model); nil when the
    /// last writer wins.
    public let merge: AttributeMerge?

    /// Describes an attribute; `storageKey` defaults to the name.
    public init(_ name: String, _ type: AttributeType, storageKey: String? = nil, optional: Bool = false,
                required: Bool = false, indexed: Bool = false, unique: Bool = false, default defaultValue: SQLValue? = nil,
                initial initialValue: InitialValue? = nil, merge: AttributeMerge? = nil) {
        self.name = name
        self.storageKey = storageKey ?? name
        self.type = type
        self.isOptional = optional
        self.isRequired = required
        self.isIndexed = indexed
        self.isUnique = unique
        self.defaultValue = defaultValue
        self.initialValue = initialValue
        self.merge = merge
    }
}

/// How concurrent changes of a synced attribute combine, besides the last writer winning.
public enum AttributeMerge: String, Sendable, Hashable, CaseIterable {
    /// An integer counter: the increments made on every device add up.
    case add
}
