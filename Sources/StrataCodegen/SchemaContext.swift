import StrataSchema

/// The template values of the schema history: every version as runtime descriptors.
///
/// The compiler type-checks each declaration on its own, so the output is one `static let` with an
/// explicit type per entity description, declared in the namespace of the first version that has it
/// and shared by every later version whose description (lock included) is the same. A version
/// lists references, never literals, so the history grows with changes, not versions × entities.
enum SchemaContext {
    /// The argument lines of `EntityDescription(...)` for an entity of a version, lock included.
    static func entityArguments(_ entity: Entity, in version: SchemaVersion, lock: LockHash) -> [String] {
        let attributes = entity.attributes.filter { !$0.isVirtual }.map { attribute -> String in
            let code = AttributeCode(attribute)
            var arguments = [SwiftSyntax.stringLiteral(attribute.name), code.typeCase]
            if attribute.storageKey != attribute.name { arguments.append("storageKey: " + SwiftSyntax.stringLiteral(attribute.storageKey)) }
            if attribute.isOptional { arguments.append("optional: true") }
            if code.isRequired { arguments.append("required: true") }
            if attribute.isIndexed { arguments.append("indexed: true") }
            if attribute.isUnique { arguments.append("unique: true") }
            return "AttributeDescription(" + arguments.joined(separator: ", ") + ")"
        }
        let relationships = entity.relationships.map { relationship -> String in
            var arguments = [SwiftSyntax.stringLiteral(relationship.name), "destination: " + SwiftSyntax.stringLiteral(relationship.destination),
                             "inverse: " + SwiftSyntax.stringLiteral(relationship.inverse)]
            if relationship.kind != .toOne { arguments.append("kind: ." + relationship.kind.rawValue) }
            if relationship.deleteRule != .nullify { arguments.append("deleteRule: ." + relationship.deleteRule.rawValue) }
            if let minimum = relationship.minCount { arguments.append("minCount: \(minimum)") }
            if let maximum = relationship.maxCount { arguments.append("maxCount: \(maximum)") }
            if relationship.storageKey != relationship.name { arguments.append("storageKey: " + SwiftSyntax.stringLiteral(relationship.storageKey)) }
            return "RelationshipDescription(" + arguments.joined(separator: ", ") + ")"
        }
        let shape = EntityShape(entity, in: version)
        var arguments = [SwiftSyntax.stringLiteral(entity.name)]
        if entity.isAbstract { arguments.append("abstract: true") }
        if let parent = entity.parent { arguments.append("parent: " + SwiftSyntax.stringLiteral(parent.value)) }
        if !attributes.isEmpty { arguments.append(list("attributes", attributes)) }
        if !relationships.isEmpty { arguments.append(list("relationships", relationships)) }
        if !shape.uniqueness.isEmpty {
            arguments.append("uniqueness: [" + shape.uniqueness.map { "[" + $0.map(SwiftSyntax.stringLiteral).joined(separator: ", ") + "]" }
                .joined(separator: ", ") + "]")
        }
        arguments.append("lock: " + lock.description)
        return arguments
    }

    /// `label: [` one element a line `]`, indented for a declaration's argument list.
    private static func list(_ label: String, _ elements: [String]) -> String {
        label + ": [\n" + elements.map { "            " + $0 + ",\n" }.joined() + "        ]"
    }

    /// The versions of a model, oldest first, each with the entity declarations it introduces, the
    /// references its entity list is made of, its configurations and its namespace.
    static func versions(_ model: Model) -> [TemplateNode] {
        let modelName = model.manifest.name
        var firstDeclared: [String: (version: String, property: String)] = [:]
        var users: [String: [String]] = [:]
        var perVersion: [(version: SchemaVersion, entities: [(entity: String, key: String)])] = []
        for version in orderedVersions(model) {
            let locks = versionLocks(version)
            let entities = version.entities.sorted { $0.name < $1.name }.map { entity -> (entity: String, key: String) in
                let key = entityArguments(entity, in: version, lock: locks[entity.name]!).joined(separator: ",\n        ")
                if firstDeclared[key] == nil { firstDeclared[key] = (version.name, "entity" + entity.name) }
                users[key, default: []].append(version.name)
                return (entity.name, key)
            }
            perVersion.append((version, entities))
        }
        return perVersion.map { version, entities in
            let namespace = SwiftSyntax.identifier(modelName + version.name)
            var declarations: [TemplateNode] = []
            var references: [String] = []
            for (entity, key) in entities {
                let declared = firstDeclared[key]!
                if declared.version == version.name {
                    declarations.append(TemplateNode([
                        "property": declared.property, "arguments": key,
                        "summary": "`\(entity)` in " + users[key]!.joined(separator: ", ") + ".",
                    ]))
                    references.append(declared.property)
                } else {
                    references.append(SwiftSyntax.identifier(modelName + declared.version) + "." + declared.property)
                }
            }
            return TemplateNode([
                "namespace": namespace, "plainName": version.name, "nameLiteral": SwiftSyntax.stringLiteral(version.name),
                "declarations": declarations, "references": references,
                "configurations": configurationsLiteral(model, version),
            ])
        }
    }

    /// Versions oldest first: by distance from the chain's end, then by their place in the chain.
    private static func orderedVersions(_ model: Model) -> [SchemaVersion] {
        let order = Dictionary(model.manifest.chain.versions.map(\.value).enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let distance = Dictionary(model.versions.map { ($0.name, model.manifest.chain.path(from: $0.name).count) }, uniquingKeysWith: { first, _ in first })
        return model.versions.sorted { (-distance[$0.name]!, order[$0.name] ?? 0) < (-distance[$1.name]!, order[$1.name] ?? 0) }
    }

    /// Each entity's lock: the sealed one where the version is sealed, otherwise computed.
    private static func versionLocks(_ version: SchemaVersion) -> [String: LockHash] {
        var locks: [String: LockHash] = EntityShape.shapes(of: version).mapValues { LockFormat.current.lock($0) }
        if let sealed = version.versionLock {
            for (entity, lock) in sealed.entries where locks[entity] != nil { locks[entity] = lock.value }
        }
        return locks
    }

    /// `["Cache": ["Thumbnail"], ...]`, each configuration's entities present in the version.
    private static func configurationsLiteral(_ model: Model, _ version: SchemaVersion) -> String {
        let names = Set(version.entities.map(\.name))
        let configurations = model.manifest.configurations.sorted { $0.name.value < $1.name.value }.map { configuration -> String in
            let members = configuration.entities.map(\.value).filter(names.contains).map(SwiftSyntax.stringLiteral)
            return SwiftSyntax.stringLiteral(configuration.name.value) + ": [" + members.joined(separator: ", ") + "]"
        }
        return configurations.isEmpty ? "[:]" : "[" + configurations.joined(separator: ", ") + "]"
    }

    /// `["V1", "V2"]` for a line, `["V1": "V3", "V2": "V3"]` for a tree.
    static func chainLiteral(_ chain: MigrationChain) -> String {
        let versions = chain.versions.map(\.value)
        let isLine = chain.steps.count == versions.count - 1
            && chain.steps.enumerated().allSatisfy { $1.from.value == versions[$0] && $1.to.value == versions[$0 + 1] }
        if isLine { return "[" + versions.map(SwiftSyntax.stringLiteral).joined(separator: ", ") + "]" }
        return "[" + chain.steps.map { SwiftSyntax.stringLiteral($0.from.value) + ": " + SwiftSyntax.stringLiteral($0.to.value) }
            .joined(separator: ", ") + "]"
    }
}
