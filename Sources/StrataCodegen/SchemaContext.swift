import StrataSchema

/// The template values of the schema history: every version as runtime descriptors.
enum SchemaContext {
    /// `EntityDescription(...)` for an entity of a version.
    static func entityLiteral(_ entity: Entity, in version: SchemaVersion) -> String {
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
        if !attributes.isEmpty { arguments.append("attributes: [" + attributes.joined(separator: ", ") + "]") }
        if !relationships.isEmpty { arguments.append("relationships: [" + relationships.joined(separator: ", ") + "]") }
        if !shape.uniqueness.isEmpty {
            arguments.append("uniqueness: [" + shape.uniqueness.map { "[" + $0.map(SwiftSyntax.stringLiteral).joined(separator: ", ") + "]" }
                .joined(separator: ", ") + "]")
        }
        return "EntityDescription(" + arguments.joined(separator: ", ") + ")"
    }

    /// The versions of a model, oldest first, each with its descriptors, configurations and lock.
    static func versions(_ model: Model) -> [TemplateNode] {
        let order = model.manifest.chain.versions.map(\.value)
        let distance = { (name: String) in model.manifest.chain.path(from: name).count }
        let versions = model.versions.sorted { (-distance($0.name), order.firstIndex(of: $0.name) ?? 0) < (-distance($1.name), order.firstIndex(of: $1.name) ?? 0) }
        return versions.map { version in
            let names = Set(version.entities.map(\.name))
            let configurations = model.manifest.configurations.sorted { $0.name.value < $1.name.value }.map { configuration -> String in
                let members = configuration.entities.map(\.value).filter(names.contains).map(SwiftSyntax.stringLiteral)
                return SwiftSyntax.stringLiteral(configuration.name.value) + ": [" + members.joined(separator: ", ") + "]"
            }
            var locks: [String: LockHash] = EntityShape.shapes(of: version).mapValues { LockFormat.current.lock($0) }
            if let sealed = version.versionLock {
                for (entity, lock) in sealed.entries where names.contains(entity) { locks[entity] = lock.value }
            }
            let lock = locks.keys.sorted().map { SwiftSyntax.stringLiteral($0) + ": " + locks[$0]!.description }
            return TemplateNode([
                "property": "version" + version.name, "plainName": version.name, "nameLiteral": SwiftSyntax.stringLiteral(version.name),
                "entities": version.entities.sorted { $0.name < $1.name }.map { entityLiteral($0, in: version) },
                "configurations": configurations.isEmpty ? "[:]" : "[" + configurations.joined(separator: ", ") + "]",
                "lock": lock.isEmpty ? "[:]" : "[" + lock.joined(separator: ", ") + "]",
            ])
        }
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
