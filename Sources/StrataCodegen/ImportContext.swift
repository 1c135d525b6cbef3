import StrataSchema

/// The template values of `import:` blocks: a conformance per importing entity, with one
/// statement per imported key.
enum ImportContext {
    static func importers(_ version: SchemaVersion) -> [TemplateNode] {
        version.entities.sorted { $0.name < $1.name }.compactMap { entity -> TemplateNode? in
            guard let spec = entity.importSpec else { return nil }
            let lineage = version.ancestors(of: entity).reversed() + [entity]
            let attributes = lineage.flatMap(\.attributes)
            let relationships = lineage.flatMap(\.relationships)
            let keyOf = Dictionary(spec.keys.map { ($0.property.value, $0.keyPath) }, uniquingKeysWith: { first, _ in first })
            let entityLiteral = SwiftSyntax.stringLiteral(entity.name)
            var statements: [String] = []
            for key in spec.keys {
                let name = key.property.value
                let path = SwiftSyntax.stringLiteral(key.keyPath)
                let property = SwiftSyntax.identifier(name)
                let nameLiteral = SwiftSyntax.stringLiteral(name)
                if let attribute = attributes.first(where: { $0.name == name }), name != spec.uniqueID?.value {
                    let code = AttributeCode(attribute)
                    let decode = attribute.type == .codable
                        ? "ImportValue.decodeCodable(\(attribute.swiftType ?? "Never").self, source, \(path), entity: \(entityLiteral), attribute: \(nameLiteral))"
                        : "ImportValue.decode(\(code.publicType.hasSuffix("?") ? String(code.publicType.dropLast()) : code.publicType).self, source, \(path), entity: \(entityLiteral), attribute: \(nameLiteral))"
                    if attribute.isOptional {
                        statements.append("if ImportValue.isNull(source, \(path)) { \(property) = nil } else if let value = try \(decode) { \(property) = value }")
                    } else {
                        statements.append("if let value = try \(decode) { \(property) = value }")
                    }
                } else if let relationship = relationships.first(where: { $0.name == name }),
                          let destination = version.entity(named: relationship.destination), destination.importSpec != nil {
                    let imported = "try transaction.importRelated(Into<\(SwiftSyntax.identifier(destination.name))>(), related)"
                    let value: String
                    switch relationship.kind {
                    case .toOne: value = imported + ".first"
                    case .unordered: value = "Set(" + imported + ")"
                    case .ordered: value = imported
                    }
                    statements.append("if let related = try ImportValue.related(source, \(path), entity: \(entityLiteral), relationship: \(nameLiteral)) { \(property) = \(value) }")
                }
            }
            var node: [String: Any] = ["name": SwiftSyntax.identifier(entity.name), "plainName": entity.name, "statements": statements]
            if let uniqueID = spec.uniqueID, let attribute = attributes.first(where: { $0.name == uniqueID.value }) {
                let code = AttributeCode(attribute)
                node["uniqueIDType"] = code.publicType
                node["uniqueIDKeyPath"] = "\\." + SwiftSyntax.identifier(attribute.name)
                node["uniqueIDDecode"] = "try ImportValue.decode(\(code.publicType).self, source, \(SwiftSyntax.stringLiteral(keyOf[attribute.name] ?? attribute.name)), entity: \(entityLiteral), attribute: \(SwiftSyntax.stringLiteral(attribute.name)))"
            }
            return TemplateNode(node)
        }
    }
}
