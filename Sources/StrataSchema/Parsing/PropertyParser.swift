/// Reads the attributes and relationships of one entity.
struct PropertyParser {
    static let attributeKeys = ["type", "optional", "default", "initial", "storageKey", "indexed", "unique", "virtual", "transient", "swiftType", "coder", "merge", "hashModifier", "doc"]
    static let relationshipKeys = ["destination", "inverse", "toMany", "deleteRule", "min", "max", "storageKey", "hashModifier", "doc"]

    /// The entity the properties belong to, for messages.
    let entity: String
    var diagnostics = Diagnostics()

    init(entity: String) {
        self.entity = entity
    }

    /// `name: {type: String, ...}`, or the shorthand `name: String`.
    mutating func attribute(_ name: Located<String>, _ node: YAMLNode) -> Attribute? {
        let context = "attribute '\(entity).\(name.value)'"
        if let text = node.scalarText, !node.isNull {
            guard let type = attributeType(text, at: node.location, context: context) else { return nil }
            return Attribute(name: name.value, location: name.location, type: type)
        }
        guard let fields = Fields(node, context: context, allowed: Self.attributeKeys, diagnostics: &diagnostics) else { return nil }
        guard let typeName = fields.requiredString("type", diagnostics: &diagnostics),
              let type = attributeType(typeName.value, at: typeName.location, context: context) else { return nil }
        var attribute = Attribute(name: name.value, location: name.location, type: type)
        attribute.doc = fields.string("doc", diagnostics: &diagnostics)?.value
        attribute.hashModifier = fields.hashModifier(diagnostics: &diagnostics)
        attribute.isOptional = fields.bool("optional", diagnostics: &diagnostics)
        attribute.isIndexed = fields.bool("indexed", diagnostics: &diagnostics)
        attribute.isUnique = fields.bool("unique", diagnostics: &diagnostics)
        attribute.isVirtual = fields.bool("virtual", diagnostics: &diagnostics)
        attribute.isTransient = fields.bool("transient", diagnostics: &diagnostics)
        attribute.initial = fields.choice("initial", as: InitialValue.self, diagnostics: &diagnostics)
        attribute.coder = fields.choice("coder", as: CodableCoder.self, diagnostics: &diagnostics)
        attribute.merge = fields.choice("merge", as: MergeRule.self, diagnostics: &diagnostics)
        if let key = storageKey(fields, context: context) { attribute.storageKey = key }
        if let swiftType = fields.string("swiftType", diagnostics: &diagnostics) {
            if SwiftTypeName.isValid(swiftType.value) {
                attribute.swiftType = swiftType.value
            } else {
                diagnostics.error("'swiftType' of \(context) must be a Swift type name such as PersonSettings or Geo.Point, not '\(swiftType.value)'",
                                  at: swiftType.location)
            }
        }
        if let value = fields["default"] {
            switch DefaultValueParser.canonical(value, type: type) {
            case .success(let text): attribute.defaultValue = text
            case .failure(let error): diagnostics.error("default of \(context) \(error.reason)", at: value.location)
            }
        }
        checkCombinations(attribute, fields, context: context)
        return attribute
    }

    /// `name: {destination: Dog, inverse: master, toMany: unordered, deleteRule: cascade, min: 1, max: 5}`.
    mutating func relationship(_ name: Located<String>, _ node: YAMLNode) -> Relationship? {
        let context = "relationship '\(entity).\(name.value)'"
        guard let fields = Fields(node, context: context, allowed: Self.relationshipKeys, diagnostics: &diagnostics) else { return nil }
        let destination = fields.name("destination", required: true, what: "entity", diagnostics: &diagnostics)
        let inverse = fields.name("inverse", required: true, what: "relationship", diagnostics: &diagnostics)
        var kind = RelationshipKind.toOne
        if let toMany = fields["toMany"] {
            switch toMany.scalarText {
            case "unordered"?: kind = .unordered
            case "ordered"?: kind = .ordered
            default:
                let text = Fields.describe(toMany)
                diagnostics.error("'toMany' of \(context) must be unordered or ordered, not \(text)"
                                  + Suggestion.hint(for: toMany.scalarText ?? "", in: ["unordered", "ordered"]), at: toMany.location)
            }
        }
        let deleteRule = fields.choice("deleteRule", as: DeleteRule.self, diagnostics: &diagnostics) ?? .nullify
        let minCount = fields.count("min", diagnostics: &diagnostics)
        let maxCount = fields.count("max", diagnostics: &diagnostics)
        if kind == .toOne, minCount != nil || maxCount != nil {
            diagnostics.error("'min' and 'max' of \(context) apply to to-many relationships only", at: fields.keyLocation(minCount != nil ? "min" : "max"))
        }
        if let minCount, let maxCount, minCount > maxCount {
            diagnostics.error("'min' of \(context) is \(minCount), more than its 'max' of \(maxCount)", at: fields.keyLocation("min"))
        }
        if let maxCount, maxCount == 0 {
            diagnostics.error("'max' of \(context) is 0, so it could never hold an object", at: fields.keyLocation("max"))
        }
        let key = storageKey(fields, context: context)
        let doc = fields.string("doc", diagnostics: &diagnostics)?.value
        let hashModifier = fields.hashModifier(diagnostics: &diagnostics)
        guard let destination, let inverse else { return nil }
        var relationship = Relationship(name: name.value, location: name.location, destination: destination.value,
                                        destinationLocation: destination.location, inverse: inverse.value,
                                        inverseLocation: inverse.location, kind: kind, deleteRule: deleteRule,
                                        minCount: minCount, maxCount: maxCount, storageKey: key)
        relationship.doc = doc
        relationship.hashModifier = hashModifier
        return relationship
    }

    private mutating func attributeType(_ text: String, at location: SourceLocation, context: String) -> AttributeType? {
        if let type = AttributeType(rawValue: text) { return type }
        let names = AttributeType.allCases.map(\.rawValue)
        var hint = Self.otherSpellings[text.lowercased()].map { "; did you mean '\($0)'?" } ?? Suggestion.hint(for: text, in: names)
        if hint.isEmpty { hint = "; the types are \(names.joined(separator: ", "))" }
        diagnostics.error("unknown type '\(text)' for \(context)\(hint)", at: location)
        return nil
    }

    /// Core Data's and SQL's names for Strata's types, lowercased, for the "did you mean" hint.
    private static let otherSpellings: [String: String] = [
        "integer 16": "Int16", "integer 32": "Int32", "integer 64": "Int64", "integer": "Int64", "int8": "Int16",
        "boolean": "Bool", "binary": "Data", "binary data": "Data", "blob": "Data", "text": "String",
        "uri": "URL", "transformable": "Codable", "timestamp": "Date", "datetime": "Date", "real": "Double",
    ]

    private mutating func storageKey(_ fields: Fields, context: String) -> String? {
        guard let key = fields.string("storageKey", diagnostics: &diagnostics) else { return nil }
        if key.value.isEmpty || key.value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            diagnostics.error("'storageKey' of \(context) must be a non-empty name without control characters", at: key.location)
            return nil
        }
        if key.value.lowercased().hasPrefix(ReservedNames.prefix) {
            diagnostics.error("'storageKey' of \(context) is '\(key.value)', but names beginning with '\(ReservedNames.prefix)' are reserved for Strata's own columns",
                              at: key.location)
            return nil
        }
        return key.value
    }

    /// Options that make no sense together.
    private mutating func checkCombinations(_ attribute: Attribute, _ fields: Fields, context: String) {
        if attribute.type == .codable {
            if attribute.swiftType == nil, fields["swiftType"] == nil {
                diagnostics.error("\(context) is Codable, so it needs 'swiftType' naming the Swift type stored", at: attribute.location)
            }
            if attribute.coder == nil, fields["coder"] == nil {
                diagnostics.error("\(context) is Codable, so it needs 'coder': json, propertyList, binary or custom", at: attribute.location)
            }
            if attribute.isIndexed || attribute.isUnique {
                diagnostics.error("\(context) is Codable, and encoded values can be neither indexed nor unique",
                                  at: fields.keyLocation(attribute.isIndexed ? "indexed" : "unique"))
            }
        } else {
            for key in ["swiftType", "coder"] where fields[key] != nil {
                diagnostics.error("'\(key)' of \(context) applies to Codable attributes only", at: fields.keyLocation(key))
            }
        }
        if let initial = attribute.initial {
            let fits = (initial == .now && attribute.type == .date) || (initial == .uuid && attribute.type == .uuid)
            if !fits {
                let wanted = initial == .now ? "Date" : "UUID"
                diagnostics.error("'initial: \(initial.rawValue)' of \(context) needs type \(wanted), not \(attribute.type.rawValue)",
                                  at: fields.keyLocation("initial"))
            }
            if fields["default"] != nil {
                diagnostics.error("\(context) has both 'default' and 'initial'; keep one", at: fields.keyLocation("initial"))
            }
        }
        if attribute.isVirtual && attribute.isTransient {
            diagnostics.error("\(context) is both virtual (the app computes it) and transient (each object keeps it); keep one",
                              at: fields.keyLocation("transient"))
        } else if attribute.isVirtual {
            for key in ["default", "initial", "storageKey", "indexed", "unique", "hashModifier"] where fields[key] != nil {
                diagnostics.error("'\(key)' of \(context) has no effect: virtual attributes are not stored", at: fields.keyLocation(key))
            }
        } else if attribute.isTransient {
            for key in ["initial", "storageKey", "indexed", "unique", "hashModifier"] where fields[key] != nil {
                diagnostics.error("'\(key)' of \(context) has no effect: transient attributes are not stored", at: fields.keyLocation(key))
            }
            if attribute.type == .codable {
                diagnostics.error("\(context) is transient and Codable; a transient attribute holds one of the model's value types",
                                  at: fields.keyLocation("transient"))
            }
        }
    }
}

/// Names Strata keeps for itself.
enum ReservedNames {
    /// Storage keys and entity names may not begin with this (compared without case).
    static let prefix = "strata_"

    /// Type names generated code refers to, so no entity may take them.
    static let typeNames: Set<String> = [
        "Swift", "Foundation", "Strata", "String", "Int", "Int16", "Int32", "Int64", "Double", "Float", "Bool", "Set", "Array",
        "Optional", "Decimal", "Date", "Data", "UUID", "URL", "Locale", "AnyKeyPath", "StrataObject", "ObjectID", "RowReader",
        "ColumnBinder", "KeyPathNames", "SnapshotKey", "EntityDescription", "AttributeDescription", "RelationshipDescription", "ModelVersion", "SchemaHistory",
        "Snapshot", "Type", "Protocol", "Self", "Any", "ObservedProperties",
    ]

    /// Members every entity class has, so no property may take them; `Type` cannot follow a key-path dot.
    static let propertyNames: Set<String> = [
        "objectID", "entityName", "isDeleted", "debugDescription", "readColumns", "bindColumns", "setInitialValues",
        "foreignKey", "setForeignKey", "toOne", "toMany", "setToOne", "setToMany", "toOneObject", "setToOneObject", "requiredValue", "willSet",
        "propertyName", "keyPathNames", "Type", "Protocol", "observedProperties", "observationAccess", "didSet",
        "storedValues", "StoredValues",
    ]
}

/// Swift type names as `swiftType` accepts them: dotted identifiers, optionally with generic arguments.
enum SwiftTypeName {
    /// Whether `text` looks like `Name`, `Outer.Inner` or `Box<Name>`; nothing else reaches generated code.
    static func isValid(_ text: String) -> Bool {
        var depth = 0
        var current = ""
        func flush() -> Bool {
            defer { current = "" }
            return Identifier.isValid(current)
        }
        for character in text {
            switch character {
            case ".": guard flush() else { return false }
            case "<": guard flush() else { return false }; depth += 1
            case ",":
                guard depth > 0, flush() else { return false }
            case ">":
                guard depth > 0 else { return false }
                if !current.isEmpty, !flush() { return false }
                depth -= 1
            case " ": continue
            default: current.append(character)
            }
        }
        return depth == 0 && (current.isEmpty ? text.last == ">" : flush())
    }
}
