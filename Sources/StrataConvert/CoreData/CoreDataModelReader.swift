import StrataSchema
/// Reads the XML tree of a `contents` file into a ``CoreDataModel``.
///
/// Elements it does not know (such as the diagram's `elements`) are skipped; an element it needs
/// without a name it needs is an error at that element.
public struct CoreDataModelReader {
    /// The file the tree came from, for positions.
    let file: String

    /// Reads a model version's `contents` file.
    public static func read(_ tree: XMLTree, file: String) throws(ConversionDiagnostic) -> CoreDataModel {
        try CoreDataModelReader(file: file).model(tree)
    }

    func position(_ element: XMLTree) -> SourceLocation {
        SourceLocation(file: file, line: element.line, column: element.column)
    }

    func required(_ key: String, of element: XMLTree) throws(ConversionDiagnostic) -> String {
        guard let value = element.attributes[key], !value.isEmpty else {
            throw ConversionDiagnostic(.error, "<\(element.name)> has no \(key)", at: position(element))
        }
        return value
    }

    /// The longest name read: Core Data's are short, and a YAML key may not pass 1,024 characters.
    static let maximumNameLength = 255

    /// A required name that must be a Swift identifier, as Core Data's entity and property names are.
    func identifier(_ key: String, of element: XMLTree) throws(ConversionDiagnostic) -> String {
        let value = try required(key, of: element)
        guard ModelNames.isValid(value), value.count <= Self.maximumNameLength else {
            let shown = value.count > 60 ? String(value.prefix(60)) + "…" : value
            throw ConversionDiagnostic(.error, "<\(element.name)> \(key) '\(shown)' is not a valid name; \(ModelNames.rule), "
                                       + "at most \(Self.maximumNameLength) characters", at: position(element))
        }
        return value
    }

    static func flag(_ element: XMLTree, _ key: String) -> Bool { element.attributes[key] == "YES" }

    func model(_ tree: XMLTree) throws(ConversionDiagnostic) -> CoreDataModel {
        guard tree.name == "model" else {
            throw ConversionDiagnostic(.error, "not a Core Data model: the root element is <\(tree.name)>, not <model>", at: position(tree))
        }
        var model = CoreDataModel()
        for child in tree.children {
            switch child.name {
            case "entity":
                model.entities.append(try entity(child))
            case "configuration":
                let members = try child.children(named: "memberEntity").map { (member) throws(ConversionDiagnostic) in try required("name", of: member) }
                model.configurations.append(CoreDataConfiguration(name: try required("name", of: child), entities: members, position: position(child)))
            case "fetchRequest":
                model.fetchRequests.append(CoreDataFetchRequest(name: try required("name", of: child), entity: child.attributes["entity"] ?? "",
                                                                position: position(child)))
            default:
                continue
            }
        }
        try requireUnique(model.entities.map { ($0.name, $0.position) }, "two entities are named")
        try requireUnique(model.configurations.map { ($0.name, $0.position ?? position(tree)) }, "two configurations are named")
        return model
    }

    /// Throws at the second of two things with one name.
    func requireUnique(_ named: [(String, SourceLocation)], _ what: String) throws(ConversionDiagnostic) {
        var seen: Set<String> = []
        for (name, place) in named where !seen.insert(name).inserted {
            throw ConversionDiagnostic(.error, "\(what) '\(name)'", at: place)
        }
    }

    /// An XML attribute's value, nil when absent or empty.
    static func text(_ element: XMLTree, _ name: String) -> String? {
        element.attributes[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    func entity(_ element: XMLTree) throws(ConversionDiagnostic) -> CoreDataEntity {
        var entity = CoreDataEntity(name: try identifier("name", of: element), position: position(element))
        entity.className = element.attributes["representedClassName"]
        entity.parent = element.attributes["parentEntity"]
        entity.isAbstract = Self.flag(element, "isAbstract")
        entity.renamingIdentifier = element.attributes["elementID"]
        entity.versionHashModifier = Self.text(element, "versionHashModifier")
        for child in element.children {
            switch child.name {
            case "attribute": entity.attributes.append(try attribute(child))
            case "relationship": entity.relationships.append(try relationship(child))
            case "fetchedProperty": entity.fetchedProperties.append(NamedPosition(name: try required("name", of: child), position: position(child)))
            case "userInfo": entity.userInfo = try userInfo(child)
            case "uniquenessConstraints":
                for constraint in child.children(named: "uniquenessConstraint") {
                    entity.uniquenessConstraints.append(try constraint.children(named: "constraint").map { (part) throws(ConversionDiagnostic) in
                        try required("value", of: part)
                    })
                }
            case "fetchIndex":
                let properties = child.children(named: "fetchIndexElement").map { part in
                    part.attributes["property"] ?? "(" + (part.attributes["expression"] ?? "") + ")"
                }
                entity.indexes.append(CoreDataIndex(name: child.attributes["name"] ?? "", properties: properties))
            case "compoundIndexes":
                for index in child.children(named: "compoundIndex") {
                    entity.indexes.append(CoreDataIndex(name: "", properties: try index.children(named: "index").map { (part) throws(ConversionDiagnostic) in
                        try required("value", of: part)
                    }))
                }
            default:
                continue
            }
        }
        try requireUnique(entity.attributes.map { ($0.name, $0.position) } + entity.relationships.map { ($0.name, $0.position) }
                          + entity.fetchedProperties.map { ($0.name, $0.position) }, "entity '\(entity.name)' has two properties named")
        return entity
    }

    func attribute(_ element: XMLTree) throws(ConversionDiagnostic) -> CoreDataAttribute {
        var attribute = CoreDataAttribute(name: try identifier("name", of: element), type: element.attributes["attributeType"] ?? "Undefined",
                                          position: position(element))
        attribute.isOptional = Self.flag(element, "optional")
        attribute.isTransient = Self.flag(element, "transient")
        attribute.isIndexed = Self.flag(element, "indexed")
        attribute.defaultValue = element.attributes["defaultValueString"] ?? element.attributes["defaultDateTimeInterval"]
        attribute.renamingIdentifier = element.attributes["elementID"]
        attribute.versionHashModifier = Self.text(element, "versionHashModifier")
        attribute.customClassName = element.attributes["customClassName"]
        attribute.valueTransformerName = element.attributes["valueTransformerName"]
        if Self.flag(element, "derived") { attribute.derivation = element.attributes["derivationExpression"] ?? "" }
        for key in ["minValueString", "maxValueString", "regularExpressionString"] {
            if let value = element.attributes[key] { attribute.validation.append("\(key) \(value)") }
        }
        if let info = element.child(named: "userInfo") { attribute.userInfo = try userInfo(info) }
        return attribute
    }

    func relationship(_ element: XMLTree) throws(ConversionDiagnostic) -> CoreDataRelationship {
        var relationship = CoreDataRelationship(name: try identifier("name", of: element), destination: try required("destinationEntity", of: element),
                                                position: position(element))
        relationship.inverse = element.attributes["inverseName"]
        relationship.isToMany = Self.flag(element, "toMany")
        relationship.isOrdered = Self.flag(element, "ordered")
        relationship.isOptional = Self.flag(element, "optional")
        relationship.isTransient = Self.flag(element, "transient")
        relationship.deleteRule = element.attributes["deletionRule"] ?? "Nullify"
        relationship.minCount = Int(element.attributes["minCount"] ?? "") ?? 0
        relationship.maxCount = Int(element.attributes["maxCount"] ?? "") ?? 0
        relationship.renamingIdentifier = element.attributes["elementID"]
        relationship.versionHashModifier = Self.text(element, "versionHashModifier")
        if let info = element.child(named: "userInfo") { relationship.userInfo = try userInfo(info) }
        return relationship
    }

    func userInfo(_ element: XMLTree) throws(ConversionDiagnostic) -> [UserInfoEntry] {
        try element.children(named: "entry").map { (entry) throws(ConversionDiagnostic) in
            UserInfoEntry(key: try required("key", of: entry), value: entry.attributes["value"] ?? "")
        }
    }
}
