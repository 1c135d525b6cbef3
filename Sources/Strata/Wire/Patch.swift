import Foundation

/// A create or update body for objects of `Entity`: each of its attributes either left out, set
/// to null, or given a value, decoded from JSON with the same checks and messages as a snapshot
/// (one ``PayloadError`` naming every bad, unknown or null-but-required field).
///
/// ```swift
/// let patch = try JSONDecoder().decode(Patch<Dog>.self, from: body)
/// if case .set(let name) = patch.nickname { print("renaming to", name) }
/// try await stack.perform { transaction in
///     let dog = try patch.create(in: transaction)        // every required attribute given
///     // or: try patch.apply(to: transaction.edit(dog)!)   // only the fields given
/// }
/// ```
///
/// A patch carries the entity's attributes and to-one relationships, named as the model names
/// them and written as snapshots write them: a `coder: custom` attribute as base64 of its stored
/// bytes, a to-one relationship as the related object's unique ID (its row id when its entity
/// has none), so a snapshot's JSON without its `objectID` is a patch of the same values. An ID
/// that names no object throws ``UnknownReference`` when the patch is applied. To-many
/// relationships are the route's to set.
@dynamicMemberLookup
public struct Patch<Entity: StrataObject>: Decodable, Sendable {
    /// The fields given, by name: `.null`, or `.set` with a value of the attribute's type (for a
    /// relationship, the ID given). A field left out has no entry.
    private var given: [String: GivenField]

    /// An empty patch: every attribute left out.
    public init() {
        given = [:]
    }

    /// Decodes a body: a JSON object whose fields are the entity's attributes. Throws one
    /// ``PayloadError`` naming every field that is unknown, of the wrong kind, or null where
    /// the attribute cannot be nil.
    public init(from decoder: any Decoder) throws {
        let attributes = PatchAttributes.of(Entity.self)
        var reader = try PayloadReader(decoder, entity: Entity.entityName, fields: attributes.names)
        var given: [String: GivenField] = [:]
        for attribute in attributes.attributes {
            if let field = Self.read(attribute, from: &reader) { given[attribute.name] = field }
        }
        try reader.finish()
        self.given = given
    }

    /// Whether the body gave no field.
    public var isEmpty: Bool { given.isEmpty }

    /// The names of the attributes the body gave (as null or with a value), in the class's order.
    public var givenNames: [String] {
        PatchAttributes.of(Entity.self).names.filter { given[$0] != nil }
    }

    /// An attribute's field: `patch.nickname` is `.absent`, `.null` or `.set("Rex")`. Set it to
    /// build a patch in code. A key path that is not an attribute's reads as absent and cannot
    /// be set; a to-one relationship's field is read with ``givenID(_:)`` and set with
    /// ``setID(_:_:)``, as it holds an ID.
    public subscript<Value>(dynamicMember keyPath: ReferenceWritableKeyPath<Entity, Value>) -> PatchField<Value> {
        get {
            guard let name = PatchAttributes.of(Entity.self).attribute(for: keyPath, of: Entity.self)?.name else { return .absent }
            switch given[name] {
            case nil: return .absent
            case .null?: return .null
            case .set(let value)?: return (value.value as? Value).map(PatchField.set) ?? .absent
            }
        }
        set {
            guard let attribute = PatchAttributes.of(Entity.self).attribute(for: keyPath, of: Entity.self), attribute.destination == nil else {
                misuse("Strata: \(keyPath) is not an attribute of \(Entity.entityName), so a Patch cannot carry it as a value; "
                       + "give a to-one relationship by its ID with setID(_:_:)")
            }
            switch newValue {
            case .absent: given[attribute.name] = nil
            case .null: given[attribute.name] = .null
            case .set(let value): given[attribute.name] = .set(AttributeValue(value))
            }
        }
    }

    /// Sets each field the patch gives on `object` (null clears an optional attribute or a to-one
    /// relationship); the others stay as they are. Like any change, it must run inside a
    /// transaction, on the transaction's own object (`transaction.edit(object)`). A relationship's
    /// ID that names no object throws ``UnknownReference`` before anything is changed.
    public func apply(to object: Entity) throws {
        guard let context = object.context else { return assign(to: object, related: [:]) }
        assign(to: object, related: try relatedObjects(in: context))
    }

    /// A new object of `Entity` in `transaction` with the patch's values (the model's defaults
    /// and initial values for the rest). Every attribute that is not optional and has no
    /// default must be given: the missing ones are named in one ``PayloadError``; a
    /// relationship's ID that names no object throws ``UnknownReference``; either way nothing
    /// is created.
    public func create(in transaction: BaseDataTransaction) throws -> Entity {
        let missing = requiredNames(in: transaction).filter { given[$0] == nil }
        if !missing.isEmpty {
            throw PayloadError(problems: missing.map { PayloadError.Problem(field: $0, reason: "is missing") })
        }
        // Found before the object exists: a lookup writes the transaction's changes first, and the
        // new object has not got its required values yet.
        let related = try relatedObjects(in: transaction.context)
        let object = transaction.create(Into<Entity>())
        assign(to: object, related: related)
        return object
    }

    /// The ID a to-one relationship's field gives: `.set(7)` for `"master": 7`, `.null` to
    /// clear it, `.absent` when left out.
    public func givenID<Destination: StrataObject>(_ keyPath: ReferenceWritableKeyPath<Entity, Destination?>) -> PatchField<AnyHashable> {
        guard let name = PatchAttributes.of(Entity.self).attribute(for: keyPath, of: Entity.self)?.name else { return .absent }
        switch given[name] {
        case nil: return .absent
        case .null?: return .null
        case .set(let value)?: return (value.value as? AnyHashable).map(PatchField.set) ?? .absent
        }
    }

    /// Gives a to-one relationship's field in code: the related object's unique ID (of its
    /// unique attribute's type; an `Int64` row id when its entity has none), or nil to clear it.
    public mutating func setID<Destination: StrataObject, ID: Hashable & Sendable>(_ keyPath: ReferenceWritableKeyPath<Entity, Destination?>,
                                                                                  _ id: ID?) {
        guard let name = PatchAttributes.of(Entity.self).attribute(for: keyPath, of: Entity.self)?.name else {
            misuse("Strata: \(keyPath) is not a to-one relationship of \(Entity.entityName)")
        }
        given[name] = id.map { .set(AttributeValue($0)) } ?? .null
    }

    /// The objects the given relationship IDs name, found in `context`.
    private func relatedObjects(in context: ObjectContext) throws -> [String: StrataObject] {
        var related: [String: StrataObject] = [:]
        for attribute in PatchAttributes.of(Entity.self).attributes {
            guard let destination = attribute.destination, case .set(let id)? = given[attribute.name] else { continue }
            guard let found = try PatchReferences.resolve(id.value, destination: destination, in: context) else {
                throw UnknownReference(field: attribute.name, entity: destination.entityName,
                                       key: PatchReferences.idType(of: destination).key, id: "\(id.value)")
            }
            related[attribute.name] = found
        }
        return related
    }

    /// Sets every given field, relationships to the objects found for them.
    private func assign(to object: Entity, related: [String: StrataObject]) {
        for attribute in PatchAttributes.of(Entity.self).attributes {
            switch given[attribute.name] {
            case nil: continue
            case .null?: Self.assign(nil, to: attribute, of: object)
            case .set(let value)?: Self.assign(related[attribute.name] ?? value.value, to: attribute, of: object)
            }
        }
    }

    /// The attributes a new object needs a value for, as the storage's layout records them.
    private func requiredNames(in transaction: BaseDataTransaction) -> [String] {
        guard let layout = transaction.context.core.layout.entity(Entity.entityName) else { return [] }
        return layout.requiredOrdinals.compactMap { layout.columns[$0].attribute?.name }
    }

    /// A field of the body, read as the attribute's type; nil when absent (or bad, which the
    /// reader records).
    private static func read(_ attribute: PatchAttributes.Attribute, from reader: inout PayloadReader) -> GivenField? {
        let field: PatchField<Any>
        if let destination = attribute.destination {
            field = readDecodable(PatchReferences.idType(of: destination).type, attribute, from: &reader)
        } else if attribute.isCustomCoded {
            let decode = { (data: Data) throws -> Any in
                guard let value = try Entity.decodeCustomValue(of: attribute.name, from: data) else {
                    throw PatchAttributeError.notCustomCoded
                }
                return value
            }
            field = attribute.isOptional ? reader.customField(attribute.name, decode: decode)
                : reader.customNotNull(attribute.name, decode: decode)
        } else if let type = attribute.valueType as? any Decodable.Type {
            field = readDecodable(type, attribute, from: &reader)
        } else {
            field = .absent
        }
        switch field {
        case .absent: return nil
        case .null: return .null
        case .set(let value): return .set(AttributeValue(value))
        }
    }

    /// A field of a `Decodable` attribute type, as `Any`.
    private static func readDecodable<Value: Decodable>(_ type: Value.Type, _ attribute: PatchAttributes.Attribute,
                                                        from reader: inout PayloadReader) -> PatchField<Any> {
        let field = attribute.isOptional ? reader.field(attribute.name, as: Value.self) : reader.notNull(attribute.name, as: Value.self)
        return field.map { $0 as Any }
    }

    /// Sets `value` (nil for null) through the attribute's key path, opened at its type.
    private static func assign(_ value: Any?, to attribute: PatchAttributes.Attribute, of object: Entity) {
        // A key path writes a computed property by reading it first, which a Codable attribute
        // without a value refuses: those the class sets itself.
        if let value, object.assignCodableValue(value, to: attribute.name) { return }
        // The key path's root is the class that declares the attribute: this one or an ancestor.
        func opening<Root>(_ root: Root.Type) {
            guard let object = object as? Root else { return }
            func set<Value>(_ type: Value.Type) {
                guard let keyPath = attribute.keyPath as? ReferenceWritableKeyPath<Root, Value> else { return }
                if let value {
                    // A value of `T` casts to `T?` as well.
                    if let typed = value as? Value { object[keyPath: keyPath] = typed }
                } else if let optional = type as? any OptionalPayload.Type, let none = optional.nilValue as? Value {
                    object[keyPath: keyPath] = none
                }
            }
            set(attribute.valueType)
        }
        let rootType: Any.Type = Swift.type(of: attribute.keyPath).rootType
        opening(rootType)
    }

    /// One field given: null, or a value.
    private enum GivenField: Sendable {
        case null
        case set(AttributeValue)
    }
}

/// A value of an attribute's type (or a relationship's ID), held as `Any`.
// Sound: a patch holds only values decoded as, or assigned through a key path from, the types of
// the entity's attributes (and `Hashable & Sendable` IDs, by `setID`'s signature), and every
// attribute type is `Sendable`: the generated `Snapshot`, a `Sendable` struct, holds each of them
// and would not compile otherwise. The value is never mutated after it is stored.
struct AttributeValue: @unchecked Sendable {
    let value: Any

    init(_ value: Any) {
        self.value = value
    }
}

/// Why a custom-coded field did not decode when the class names no function for it (a class
/// the generator did not make).
enum PatchAttributeError: Error, CustomStringConvertible {
    case notCustomCoded

    var description: String { "the entity class has no decode function for it" }
}
