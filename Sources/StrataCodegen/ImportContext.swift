import StrataSchema

/// The template values of `import:` blocks: per importing entity, its `ImportPayload` (one field
/// per imported key, decoded as the block maps it) and a conformance that applies a payload.
enum ImportContext {
    static func importers(_ version: SchemaVersion) -> [TemplateNode] {
        version.entities.sorted { $0.name < $1.name }.compactMap { entity -> TemplateNode? in
            guard let spec = entity.importSpec else { return nil }
            let lineage = version.ancestors(of: entity).reversed() + [entity]
            let attributes = lineage.flatMap(\.attributes)
            let relationships = lineage.flatMap(\.relationships)
            let keyOf = Dictionary(spec.keys.map { ($0.property.value, $0.keyPath) }, uniquingKeysWith: { first, _ in first })
            var fields: [Field] = []
            var node: [String: Any] = ["name": SwiftSyntax.identifier(entity.name), "plainName": entity.name,
                                       "entityLiteral": SwiftSyntax.stringLiteral(entity.name)]
            if let uniqueID = spec.uniqueID, let attribute = attributes.first(where: { $0.name == uniqueID.value }) {
                let field = Field.uniqueID(attribute, keyPath: keyOf[attribute.name] ?? attribute.name)
                fields.append(field)
                node["uniqueIDType"] = AttributeCode(attribute).publicType
                node["uniqueIDKeyPath"] = "\\." + field.name
                node["uniqueIDField"] = field.name
            }
            for key in spec.keys where key.property.value != spec.uniqueID?.value {
                let name = key.property.value
                if let attribute = attributes.first(where: { $0.name == name }) {
                    fields.append(.attribute(attribute, keyPath: key.keyPath))
                } else if let relationship = relationships.first(where: { $0.name == name }),
                          let destination = version.entity(named: relationship.destination), let destinationSpec = destination.importSpec {
                    fields.append(.relationship(relationship, to: destination, uniqued: destinationSpec.uniqueID != nil,
                                                keyPath: key.keyPath, entity: entity))
                }
            }
            node["fields"] = fields.map(\.node)
            node["hasFields"] = !fields.isEmpty
            node["initParameters"] = fields.map { "\($0.name): \($0.type)" + ($0.defaultValue.map { " = " + $0 } ?? "") }.joined(separator: ", ")
            node["statements"] = fields.compactMap(\.update)
            return TemplateNode(node)
        }
    }

    /// One field of a payload: its declaration, how it is decoded, and how it updates the object.
    struct Field {
        let name: String
        let type: String
        let defaultValue: String?
        let decode: String
        let doc: String
        let update: String?

        var node: TemplateNode {
            TemplateNode(["name": name, "type": type, "decode": decode, "doc": doc])
        }

        /// The unique ID: optional whatever the attribute is, because a source whose ID is null or
        /// absent is skipped (and counted), as CoreStore skips a source whose `uniqueID` is nil; an
        /// ID of the wrong type is still an error naming the source and the key.
        static func uniqueID(_ attribute: Attribute, keyPath: String) -> Field {
            let base = baseType(of: attribute)
            let arguments = "(\(base).self, \(SwiftSyntax.stringLiteral(keyPath)), attribute: \(SwiftSyntax.stringLiteral(attribute.name)))"
            return Field(name: SwiftSyntax.identifier(attribute.name), type: base + "?", defaultValue: "nil",
                         decode: "value" + arguments,
                         doc: "The unique ID, from the key \(SwiftSyntax.stringLiteral(keyPath)); nil (absent or null) skips the source.",
                         update: nil)
        }

        /// An attribute: nil leaves a non-optional one as it is; an optional one can also be cleared.
        static func attribute(_ attribute: Attribute, keyPath: String) -> Field {
            let base = baseType(of: attribute)
            let codable = attribute.type == .codable
            let arguments = "(\(base).self, \(SwiftSyntax.stringLiteral(keyPath)), attribute: \(SwiftSyntax.stringLiteral(attribute.name)))"
            let name = SwiftSyntax.identifier(attribute.name)
            let source = "from the key \(SwiftSyntax.stringLiteral(keyPath))"
            if attribute.isOptional {
                return Field(name: name, type: "ImportField<\(base)>", defaultValue: ".absent",
                             decode: (codable ? "codableField" : "field") + arguments,
                             doc: "`\(attribute.name)`, \(source): absent leaves it as it is, null clears it.",
                             update: "if let value = source.\(name).replacement { self.\(name) = value }")
            }
            return Field(name: name, type: base + "?", defaultValue: "nil", decode: (codable ? "codable" : "value") + arguments,
                         doc: "`\(attribute.name)`, \(source): nil (absent or null) leaves it as it is.",
                         update: "if let value = source.\(name) { self.\(name) = value }")
        }

        /// A relationship: nested payloads, or IDs of existing objects when the destination has a unique ID.
        static func relationship(_ relationship: Relationship, to destination: Entity, uniqued: Bool, keyPath: String, entity: Entity) -> Field {
            let destinationName = SwiftSyntax.identifier(destination.name)
            let type = "ImportRelation<\(destinationName).ImportPayload, \(uniqued ? destinationName + ".UniqueIDValue" : "Never")>"
            let name = SwiftSyntax.identifier(relationship.name)
            let path = SwiftSyntax.stringLiteral(keyPath)
            let imported = "try transaction.importRelated(Into<\(destinationName)>(), related, entity: \(SwiftSyntax.stringLiteral(entity.name)), "
                + "relationship: \(SwiftSyntax.stringLiteral(relationship.name)), key: \(path))"
            let value: String
            switch relationship.kind {
            case .toOne: value = imported + ".first"
            case .unordered: value = "Set(" + imported + ")"
            case .ordered: value = imported
            }
            return Field(name: name, type: type + "?", defaultValue: "nil",
                         decode: "relation(\(type).self, \(path), relationship: \(SwiftSyntax.stringLiteral(relationship.name)))",
                         doc: "`\(relationship.name)`, from the key \(path): nested `\(destination.name)` sources"
                            + (uniqued ? " or IDs of existing ones" : "") + "; nil (absent) leaves it as it is, null empties it.",
                         update: "if let related = source.\(name) { self.\(name) = \(value) }")
        }

        /// The attribute's Swift type without an optional.
        private static func baseType(of attribute: Attribute) -> String {
            let type = AttributeCode(attribute).publicType
            return type.hasSuffix("?") ? String(type.dropLast()) : type
        }
    }
}
