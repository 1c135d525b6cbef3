import StrataSchema

/// A key and value of an element's user info.
public struct UserInfoEntry: Sendable, Hashable {
    /// The key.
    public var key: String
    /// The value.
    public var value: String
}

/// One version of a Core Data model, as its `contents` file describes it.
public struct CoreDataModel: Sendable, Hashable {
    /// The entities, in file order.
    public var entities: [CoreDataEntity] = []
    /// The configurations, in file order.
    public var configurations: [CoreDataConfiguration] = []
    /// The stored fetch requests, which have no counterpart.
    public var fetchRequests: [CoreDataFetchRequest] = []

    /// The entity with a name.
    public func entity(_ name: String) -> CoreDataEntity? { entities.first { $0.name == name } }
}

/// A named configuration and its member entities.
public struct CoreDataConfiguration: Sendable, Hashable {
    /// The configuration's name.
    public var name: String
    /// The member entities, in file order.
    public var entities: [String]
    /// Where its `<configuration>` element is.
    public var position: SourceLocation?

    /// A configuration read elsewhere.
    public init(name: String, entities: [String], position: SourceLocation? = nil) {
        self.name = name
        self.entities = entities
        self.position = position
    }
}

/// A fetch request stored in the model.
public struct CoreDataFetchRequest: Sendable, Hashable {
    /// Its name.
    public var name: String
    /// The entity it fetches.
    public var entity: String
    /// Where it is.
    public var position: SourceLocation
}

/// A fetch index (or an older compound index): its name and properties, in order.
public struct CoreDataIndex: Sendable, Hashable {
    /// The index's name (empty for a compound index).
    public var name: String
    /// The indexed properties.
    public var properties: [String]
}

/// Something known only by its name and place: a fetch request or fetched property.
public struct NamedPosition: Sendable, Hashable {
    /// Its name.
    public var name: String
    /// Where it is.
    public var position: SourceLocation
}

/// An entity of a Core Data model.
public struct CoreDataEntity: Sendable, Hashable {
    /// The entity's name.
    public var name: String
    /// `representedClassName`, when given.
    public var className: String?
    /// `parentEntity`, when given.
    public var parent: String?
    /// `isAbstract="YES"`.
    public var isAbstract = false
    /// The renaming identifier (`elementID`): the name this entity had in the previous version.
    public var renamingIdentifier: String?
    /// The attributes, in file order.
    public var attributes: [CoreDataAttribute] = []
    /// The relationships, in file order.
    public var relationships: [CoreDataRelationship] = []
    /// The names of fetched properties, which have no counterpart.
    public var fetchedProperties: [NamedPosition] = []
    /// Uniqueness constraints: each a group of property names.
    public var uniquenessConstraints: [[String]] = []
    /// Fetch indexes (and older compound indexes): a name and the properties, in order.
    public var indexes: [CoreDataIndex] = []
    /// The user info.
    public var userInfo: [UserInfoEntry] = []
    /// `versionHashModifier`: text Core Data mixes into the version hash.
    public var versionHashModifier: String?
    /// Where the entity starts.
    public var position: SourceLocation
}

/// An attribute of a Core Data entity.
public struct CoreDataAttribute: Sendable, Hashable {
    /// The attribute's name.
    public var name: String
    /// `attributeType` as written: `Integer 16`, `String`, `Transformable`, ...
    public var type: String
    /// `optional="YES"`.
    public var isOptional = false
    /// `transient="YES"`: not stored.
    public var isTransient = false
    /// `indexed="YES"` (older models).
    public var isIndexed = false
    /// `defaultValueString` (or a date's `defaultDateTimeInterval`), when given.
    public var defaultValue: String?
    /// The renaming identifier (`elementID`).
    public var renamingIdentifier: String?
    /// `customClassName` of a transformable value.
    public var customClassName: String?
    /// `valueTransformerName` of a transformable value.
    public var valueTransformerName: String?
    /// `derived="YES"`, with its `derivationExpression`.
    public var derivation: String?
    /// Validation Core Data applies and Strata does not: `minValueString`, `maxValueString`,
    /// `regularExpressionString`, as written.
    public var validation: [String] = []
    /// The user info.
    public var userInfo: [UserInfoEntry] = []
    /// `versionHashModifier`: text Core Data mixes into the version hash.
    public var versionHashModifier: String?
    /// Where the attribute is.
    public var position: SourceLocation
}

/// A relationship of a Core Data entity.
public struct CoreDataRelationship: Sendable, Hashable {
    /// The relationship's name.
    public var name: String
    /// `destinationEntity`.
    public var destination: String
    /// `inverseName`, when the relationship has an inverse.
    public var inverse: String?
    /// `toMany="YES"`.
    public var isToMany = false
    /// `ordered="YES"`.
    public var isOrdered = false
    /// `optional="YES"`.
    public var isOptional = false
    /// `transient="YES"`.
    public var isTransient = false
    /// `deletionRule`: `Nullify`, `Cascade`, `Deny` or `No Action`.
    public var deleteRule = "Nullify"
    /// `minCount` (0 when none).
    public var minCount = 0
    /// `maxCount` (0 when none).
    public var maxCount = 0
    /// The renaming identifier (`elementID`).
    public var renamingIdentifier: String?
    /// The user info.
    public var userInfo: [UserInfoEntry] = []
    /// `versionHashModifier`: text Core Data mixes into the version hash.
    public var versionHashModifier: String?
    /// Where the relationship is.
    public var position: SourceLocation
}
