import StrataSchema

/// The template values of the schema history: every version as runtime descriptors.
///
/// The compiler type-checks each declaration on its own, so the output is one `static let` with an
/// explicit type per description, declared in the namespace of the first version that has it and
/// shared by every later version where it is the same: a property in `<Entity>Properties`, an
/// entity (lock included) as `entity<Entity>`. A version lists references, never literals, so the
/// history grows with changes, not with versions × entities.
enum SchemaContext {
    /// Where each shared declaration lives and the version that declares it, keyed by its text.
    private struct Declarations {
        private(set) var reference: [String: String] = [:]
        private var declaringVersion: [String: String] = [:]

        /// Declares `key` as `namespace.name` of `version` when no earlier version did; returns
        /// whether it did so.
        mutating func use(_ key: String, version: String, namespace: String, name: String) -> Bool {
            guard reference[key] == nil else { return false }
            reference[key] = namespace + "." + name
            declaringVersion[key] = version
            return true
        }

        /// "as of V1." for a declaration's doc comment: the version that declares it, never the
        /// later ones that share it, so adding a version leaves earlier declarations' text as it is.
        func summary(_ key: String) -> String { "as of " + declaringVersion[key]! + "." }
    }

    /// A property description a version declares first.
    private struct NewProperty {
        let entity: String
        let name: String
        let type: String
        let literal: String
        let key: String
    }

    /// The versions of a model, oldest first. Each declares the property and entity descriptions
    /// no earlier version has, and lists its entities by reference.
    static func versions(_ model: Model) -> [TemplateNode] {
        let modelName = model.manifest.name
        var properties = Declarations()
        var entities = Declarations()
        var perVersion: [(version: SchemaVersion, namespace: String, entityKeys: [String], newEntities: [(name: String, key: String)],
                          newProperties: [NewProperty])] = []
        for version in orderedVersions(model) {
            let namespace = SwiftSyntax.identifier(modelName + version.name)
            let locks = versionLocks(version)
            var entityKeys: [String] = []
            var newEntities: [(name: String, key: String)] = []
            var newProperties: [NewProperty] = []
            for entity in version.entities.sorted(by: { $0.name < $1.name }) {
                func reference(_ name: String, _ type: String, _ literal: String) -> String {
                    let key = entity.name + "\u{0}" + literal
                    if properties.use(key, version: version.name, namespace: namespace + "." + entity.name + "Properties", name: "_" + name) {
                        newProperties.append(NewProperty(entity: entity.name, name: name, type: type, literal: literal, key: key))
                    }
                    return properties.reference[key]!
                }
                let attributes = entity.attributes.filter { !$0.isVirtual }.map { reference($0.name, "AttributeDescription", DescriptorCode.attribute($0)) }
                let relationships = entity.relationships.map { reference($0.name, "RelationshipDescription", DescriptorCode.relationship($0)) }
                let key = DescriptorCode.entityArguments(entity, in: version, attributes: attributes, relationships: relationships, lock: locks[entity.name]!)
                if entities.use(key, version: version.name, namespace: namespace, name: "entity" + entity.name) {
                    newEntities.append((entity.name, key))
                }
                entityKeys.append(key)
            }
            perVersion.append((version, namespace, entityKeys, newEntities, newProperties))
        }
        return perVersion.map { version, namespace, entityKeys, newEntities, newProperties in
            let groups = Dictionary(grouping: newProperties, by: \.entity).sorted { $0.key < $1.key }.map { entity, members in
                TemplateNode([
                    "name": entity + "Properties", "entity": entity,
                    "members": members.map { member in
                        TemplateNode(["property": "_" + member.name, "type": member.type, "literal": member.literal,
                                      "summary": "`\(member.name)` of `\(entity)` " + properties.summary(member.key)])
                    },
                ])
            }
            return TemplateNode([
                "namespace": namespace, "plainName": version.name, "nameLiteral": SwiftSyntax.stringLiteral(version.name),
                "declarations": newEntities.map { entity in
                    TemplateNode(["property": "entity" + entity.name, "arguments": entity.key, "summary": "`\(entity.name)` " + entities.summary(entity.key)])
                },
                "propertyGroups": groups, "references": entityKeys.map { entities.reference[$0]! },
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
