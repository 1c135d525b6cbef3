import StrataSchema

/// The template values of the schema history: every version as runtime descriptors.
///
/// The compiler type-checks each declaration on its own, so the output is one `static let` with an
/// explicit type per description, declared in the namespace of the first version that has it and
/// shared by every later version where it is the same: a property in `<Entity>Properties`, an
/// entity (lock included) as `entity<Entity>`. A version lists references, never literals, so the
/// history grows with changes, not with versions × entities. Descriptions are computed properties:
/// the step of a build that writes the module's interface skips their bodies, where it would
/// type-check every initial value of a stored one (half of that step's time for a large model).
enum SchemaContext {
    /// The versions of a model, oldest first. Each declares the property and entity descriptions
    /// no earlier version has, and lists its entities by reference. A declaration's doc comment names
    /// only the version that declares it, so adding a version leaves earlier declarations as they are.
    static func versions(_ model: Model) -> [TemplateNode] {
        let modelName = model.manifest.name
        // Text of a description (entity name and literal, or entity arguments) to its reference.
        var declared: [String: String] = [:]
        let versions = orderedVersions(model)
        // Computing a lock hashes the entity's canonical form: done for all versions on all cores.
        let allLocks = versions.concurrentMap(versionLocks)
        return zip(versions, allLocks).map { version, locks in
            let namespace = SwiftSyntax.identifier(modelName + version.name)
            var references: [String] = []
            var declarations: [TemplateNode] = []
            var groups: [TemplateNode] = []
            for entity in version.entities.sorted(by: { $0.name < $1.name }) {
                var members: [TemplateNode] = []
                func reference(_ name: String, _ type: String, _ literal: String) -> String {
                    let key = entity.name + "\u{0}" + literal
                    if let existing = declared[key] { return existing }
                    let reference = namespace + "." + entity.name + "Properties._" + name
                    declared[key] = reference
                    members.append(TemplateNode(["property": "_" + name, "type": type, "literal": literal,
                                                 "summary": "`\(name)` of `\(entity.name)` as of \(version.name)."]))
                    return reference
                }
                let attributes = entity.attributes.filter(\.isStored).map { reference($0.name, "AttributeDescription", DescriptorCode.attribute($0)) }
                let relationships = entity.relationships.map { reference($0.name, "RelationshipDescription", DescriptorCode.relationship($0)) }
                if !members.isEmpty { groups.append(TemplateNode(["name": entity.name + "Properties", "entity": entity.name, "members": members])) }
                let arguments = DescriptorCode.entityArguments(entity, in: version, attributes: attributes, relationships: relationships,
                                                               lock: locks[entity.name]!)
                if let existing = declared[arguments] {
                    references.append(existing)
                } else {
                    let reference = namespace + ".entity" + entity.name
                    declared[arguments] = reference
                    references.append(reference)
                    declarations.append(TemplateNode(["property": "entity" + entity.name, "arguments": arguments,
                                                      "summary": "`\(entity.name)` as of \(version.name)."]))
                }
            }
            return TemplateNode([
                "namespace": namespace, "plainName": version.name, "nameLiteral": SwiftSyntax.stringLiteral(version.name),
                "declarations": declarations, "propertyGroups": groups, "references": references,
                "configurations": configurationsLiteral(model, version),
                "migrations": version.migrations.sorted { $0.from.value < $1.from.value }.map(DescriptorCode.migration),
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
        var locks: [String: LockHash] = [:]
        for entity in version.entities {
            if let sealed = version.versionLock?.entries[entity.name] {
                locks[entity.name] = sealed.value
            } else {
                locks[entity.name] = LockFormat.current.lock(EntityShape(entity, in: version))
            }
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
