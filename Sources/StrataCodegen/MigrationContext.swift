import StrataSchema

/// The template values of a model's custom migration steps: a read-only view of each old entity,
/// the values each step produces, and one protocol requirement per step.
enum MigrationContext {
    static func steps(_ model: Model) -> [TemplateNode] {
        var steps: [TemplateNode] = []
        for version in model.versions.sorted(by: { $0.name < $1.name }) {
            for hints in version.migrations.sorted(by: { $0.from.value < $1.from.value }) {
                guard let old = model.version(named: hints.from.value) else { continue }
                let custom = hints.entities.filter(\.isCustom).sorted { $0.name.value < $1.name.value }
                let sameTarget = Set(model.manifest.chain.predecessors(of: version.name)).count > 1
                for hint in custom {
                    guard let entity = version.entity(named: hint.name.value),
                          let oldEntity = old.entity(named: hint.renamedFrom?.value ?? hint.name.value) else { continue }
                    let modelName = model.manifest.name
                    let viewType = "\(modelName)\(old.name).\(oldEntity.name)View"
                    let valuesType = "\(modelName)\(version.name).\(entity.name)Values"
                    let method = "migrate\(entity.name)" + (sameTarget ? "From\(old.name)" : "")
                    steps.append(TemplateNode([
                        "from": old.name, "to": version.name, "entity": entity.name,
                        "fromLiteral": SwiftSyntax.stringLiteral(old.name), "toLiteral": SwiftSyntax.stringLiteral(version.name),
                        "entityLiteral": SwiftSyntax.stringLiteral(entity.name),
                        "call": "try migrations.\(method)(from: \(viewType)(values: values))",
                        "requirement": "static func \(method)(from old: \(viewType)) throws -> \(valuesType)?",
                        "view": view(oldEntity, in: old, model: modelName), "values": values(entity, in: version, model: modelName),
                    ]))
                }
            }
        }
        return steps
    }

    private static func lineageAttributes(_ entity: Entity, in version: SchemaVersion) -> [Attribute] {
        (version.ancestors(of: entity).reversed() + [entity]).flatMap { $0.attributes.filter(\.isStored) }
    }

    /// `struct DogView` in `enum <Model><Version>`: every stored value of the old row, typed.
    private static func view(_ entity: Entity, in version: SchemaVersion, model: String) -> TemplateNode {
        let fields = lineageAttributes(entity, in: version).map { attribute -> TemplateNode in
            let code = AttributeCode(attribute)
            let key = SwiftSyntax.stringLiteral(attribute.storageKey)
            let type: String
            let decode: String
            if attribute.type == .codable {
                type = "Data?"
                decode = "values.stored(\(key))"
            } else if attribute.isOptional {
                type = code.publicType
                decode = "values.stored(\(key))"
            } else {
                type = code.publicType
                decode = "values.stored(\(key), fallback: \(code.initialValue))"
            }
            return TemplateNode(["name": SwiftSyntax.identifier(attribute.name), "type": type, "decode": decode,
                                 "plainName": attribute.name, "summary": attribute.type == .codable ? "encoded bytes" : attribute.type.rawValue])
        }
        return TemplateNode(["namespace": SwiftSyntax.identifier(model + version.name), "name": entity.name + "View", "entity": entity.name, "version": version.name,
                             "fields": fields])
    }

    /// The type of an attribute in a step's `Values`: its public type, a `Codable` one's optional
    /// (set it or leave it nil), and the stored bytes of one the app codes (`coder: custom`).
    private static func valueType(_ attribute: Attribute) -> String {
        let code = AttributeCode(attribute)
        if code.isCustomCoded { return "Data?" }
        return attribute.type == .codable ? code.storageType : code.publicType
    }

    /// `struct DogValues` in `enum <Model><Version>`: what a custom step writes for the new row.
    private static func values(_ entity: Entity, in version: SchemaVersion, model: String) -> TemplateNode {
        let attributes = lineageAttributes(entity, in: version)
        let fields = attributes.map { attribute -> TemplateNode in
            TemplateNode(["name": SwiftSyntax.identifier(attribute.name), "type": valueType(attribute), "plainName": attribute.name])
        }
        let parameters = attributes.map { "\($0.name): \(valueType($0))" }.joined(separator: ", ")
        let assignments = attributes.map { "self.\(SwiftSyntax.identifier($0.name)) = \(SwiftSyntax.identifier($0.name))" }
        let binds = attributes.map { attribute in
            // A custom-coded value is written as the bytes the step made with the app's encode function.
            AttributeCode(attribute).isCustomCoded ? "binder.bind(value: \(SwiftSyntax.identifier(attribute.name)))"
                : AttributeCode(attribute, storage: SwiftSyntax.identifier(attribute.name)).bind
        }
        return TemplateNode(["namespace": SwiftSyntax.identifier(model + version.name), "name": entity.name + "Values", "entity": entity.name, "version": version.name,
                             "fields": fields, "parameters": parameters, "assignments": assignments, "binds": binds])
    }
}
