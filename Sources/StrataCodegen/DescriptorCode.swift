import StrataSchema

/// The Swift spelled for the runtime descriptors of the schema history: one attribute, one
/// relationship, the arguments of one entity.
enum DescriptorCode {
    /// `AttributeDescription(...)` for a stored attribute.
    static func attribute(_ attribute: Attribute) -> String {
        let code = AttributeCode(attribute)
        var arguments = [SwiftSyntax.stringLiteral(attribute.name), code.typeCase]
        if attribute.storageKey != attribute.name { arguments.append("storageKey: " + SwiftSyntax.stringLiteral(attribute.storageKey)) }
        if attribute.isOptional { arguments.append("optional: true") }
        if code.isRequired { arguments.append("required: true") }
        if attribute.isIndexed { arguments.append("indexed: true") }
        if attribute.isUnique { arguments.append("unique: true") }
        if let value = attribute.defaultValue, attribute.type != .codable {
            // The stored form of the default, as the runtime's own conversion makes it.
            arguments.append("default: (\(AttributeCode.literal(value, type: attribute.type)) as \(code.publicType.hasSuffix("?") ? String(code.publicType.dropLast()) : code.publicType)).sqlValue")
        }
        if let initial = attribute.initial { arguments.append("initial: ." + initial.rawValue) }
        if let merge = attribute.merge { arguments.append("merge: ." + merge.rawValue) }
        return "AttributeDescription(" + arguments.joined(separator: ", ") + ")"
    }

    /// `RelationshipDescription(...)` for a relationship.
    static func relationship(_ relationship: Relationship) -> String {
        var arguments = [SwiftSyntax.stringLiteral(relationship.name), "destination: " + SwiftSyntax.stringLiteral(relationship.destination),
                         "inverse: " + SwiftSyntax.stringLiteral(relationship.inverse)]
        if relationship.kind != .toOne { arguments.append("kind: ." + relationship.kind.rawValue) }
        if relationship.deleteRule != .nullify { arguments.append("deleteRule: ." + relationship.deleteRule.rawValue) }
        if let minimum = relationship.minCount { arguments.append("minCount: \(minimum)") }
        if let maximum = relationship.maxCount { arguments.append("maxCount: \(maximum)") }
        if relationship.storageKey != relationship.name { arguments.append("storageKey: " + SwiftSyntax.stringLiteral(relationship.storageKey)) }
        return "RelationshipDescription(" + arguments.joined(separator: ", ") + ")"
    }

    /// The body of an entity description's getter, one statement a line: each property's
    /// description in a constant of its own (`let attribute0 = ...`), then `EntityDescription(...)`
    /// listing the constants. The compiler type-checks each statement on its own, where one array
    /// literal of 160 attributes took it 90 ms and twice the memory; and a constant costs it less
    /// than an `append` (CI's count of the solver's work on 100 × 10: 2.35 against 2.47).
    static func entityBody(_ entity: Entity, in version: EntityIndex, lock: LockHash) -> [String] {
        let uniqueness = EntityShape.uniqueness(of: entity, in: version)
        let attributes = entity.attributes.filter(\.isStored).map(attribute)
        let relationships = entity.relationships.map(relationship)
        var lines: [String] = []
        var arguments = [SwiftSyntax.stringLiteral(entity.name)]
        if entity.isAbstract { arguments.append("abstract: true") }
        if let parent = entity.parent { arguments.append("parent: " + SwiftSyntax.stringLiteral(parent.value)) }
        for (label, prefix, elements) in [("attributes", "attribute", attributes), ("relationships", "relationship", relationships)]
        where !elements.isEmpty {
            lines += elements.enumerated().map { "let \(prefix)\($0) = " + $1 }
            arguments.append(label + ": [" + elements.indices.map { "\(prefix)\($0)" }.joined(separator: ", ") + "]")
        }
        if !uniqueness.isEmpty {
            arguments.append("uniqueness: [" + uniqueness.map { "[" + $0.map(SwiftSyntax.stringLiteral).joined(separator: ", ") + "]" }
                .joined(separator: ", ") + "]")
        }
        if entity.isSynced { arguments.append("sync: true") }
        if let owner = entity.owner { arguments.append("owner: " + SwiftSyntax.stringLiteral(owner.value)) }
        arguments.append("lock: " + lock.description)
        let last = arguments.count - 1
        return lines + ["return EntityDescription("] + arguments.enumerated().map { "    " + $1 + ($0 == last ? "" : ",") } + [")"]
    }

    /// `MigrationDescription(...)` for a version's `migration:` block.
    static func migration(_ hints: MigrationHints) -> String {
        let entities = hints.entities.map { hint -> String in
            var arguments = [SwiftSyntax.stringLiteral(hint.name.value)]
            if let old = hint.renamedFrom { arguments.append("renamedFrom: " + SwiftSyntax.stringLiteral(old.value)) }
            if hint.isDeleted { arguments.append("deleted: true") }
            if hint.isCustom { arguments.append("custom: true") }
            let renames = (hint.attributes + hint.relationships).compactMap { property in
                property.renamedFrom.map { SwiftSyntax.stringLiteral(property.name.value) + ": " + SwiftSyntax.stringLiteral($0.value) }
            }
            if !renames.isEmpty { arguments.append("renamedProperties: [" + renames.joined(separator: ", ") + "]") }
            return "EntityMigrationHint(" + arguments.joined(separator: ", ") + ")"
        }
        return "MigrationDescription(from: " + SwiftSyntax.stringLiteral(hints.from.value) + ", entities: [\n"
            + entities.map { "                " + $0 + ",\n" }.joined() + "            ])"
    }
}
