import StrataSchema

/// The template values of the schema history: every version as runtime descriptors.
///
/// Older versions are text the runtime reads on first use (``VersionTextCode``): only a store of
/// such a version needs them, and a string literal costs the compiler next to nothing, where their
/// Swift code was most of a long history's build. The current version is Swift code: one `static
/// var` with an explicit type per entity, `entity<Entity>`, holding its properties' descriptions
/// and its lock, the version listing references; so no expression grows with the model. They
/// are computed properties: the step of a build that writes the module's interface skips their
/// bodies, where it would type-check every initial value of a stored one (half of that step's time
/// for a large model). Properties are not declarations of their own: for 200 × 10, their 4,000
/// declarations cost that step 0.3 s.
enum SchemaContext {
    /// The versions of a model, oldest first: the older ones as the lines of their text (an entity
    /// an earlier version describes alike as a `same` line), the current one as declarations. A
    /// version's text names only what it and earlier versions hold, so adding a version leaves
    /// earlier texts as they are.
    /// `locks` holds entities' current-format locks already known, by version name
    /// (``CurrentLocks``); the others are computed.
    static func versions(_ model: Model, locks known: [String: [String: LockHash]] = [:]) -> [TemplateNode] {
        let modelName = model.manifest.name
        let versions = orderedVersions(model)
        let current = model.currentVersion?.name
        // Computing a lock hashes the entity's canonical form, and an older version's entities are
        // described as text: both done for all versions on all cores.
        let described = versions.concurrentMap { version in
            let locks = versionLocks(version, known: known[version.name] ?? [:])
            return (locks: locks, entities: version.name == current ? [] : VersionTextCode.entities(of: version, locks: locks))
        }
        // An entity's lines to the earliest version described with them.
        var shared: [String: String] = [:]
        return zip(versions, described).map { version, described in
            let locks = described.locks
            let namespace = SwiftSyntax.identifier(modelName + version.name)
            let common: [String: Any] = ["namespace": namespace, "plainName": version.name, "nameLiteral": SwiftSyntax.stringLiteral(version.name)]
            guard version.name == current else {
                let lines = VersionTextCode.lines(version, configurations: configurations(model, version), entities: described.entities,
                                                  shared: &shared)
                return TemplateNode(common.merging(["textLines": lines]) { first, _ in first })
            }
            return TemplateNode(common.merging(declarations(version, model: model, namespace: namespace, locks: locks)) { first, _ in first })
        }
    }

    /// One version's text on its own (no `same` lines), as ``versions(_:)`` would write it for an
    /// older version: what a test compares with the current version's Swift descriptors.
    static func text(of version: SchemaVersion, in model: Model) -> String {
        var shared: [String: String] = [:]
        return VersionTextCode.lines(version, configurations: configurations(model, version),
                                     entities: VersionTextCode.entities(of: version, locks: versionLocks(version)), shared: &shared)
            .joined(separator: "\n")
    }

    /// The current version's declarations: each entity description declared once in its
    /// namespace, the version listing the entities by reference. Each declaration names its
    /// entity: the generator writes it beside the entity's class.
    private static func declarations(_ version: SchemaVersion, model: Model, namespace: String, locks: [String: LockHash]) -> [String: Any] {
        var references: [String] = []
        var declarations: [TemplateNode] = []
        let index = EntityIndex(version)
        for entity in version.entities.sorted(by: { $0.name < $1.name }) {
            let body = DescriptorCode.entityBody(entity, in: index, lock: locks[entity.name]!)
            references.append(namespace + ".entity" + entity.name)
            declarations.append(TemplateNode(["property": "entity" + entity.name, "entity": entity.name, "body": body,
                                              "summary": "`\(entity.name)` as of \(version.name)."]))
        }
        return [
            "declarations": declarations, "references": references,
            "configurations": configurationsLiteral(model, version),
            "migrations": version.migrations.sorted { $0.from.value < $1.from.value }.map(DescriptorCode.migration),
        ]
    }

    /// Versions oldest first: by distance from the chain's end, then by their place in the chain.
    private static func orderedVersions(_ model: Model) -> [SchemaVersion] {
        let order = Dictionary(model.manifest.chain.versions.map(\.value).enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let distance = Dictionary(model.versions.map { ($0.name, model.manifest.chain.path(from: $0.name).count) }, uniquingKeysWith: { first, _ in first })
        return model.versions.sorted { (-distance[$0.name]!, order[$0.name] ?? 0) < (-distance[$1.name]!, order[$1.name] ?? 0) }
    }

    /// Each entity's lock: the sealed one where the version is sealed, otherwise the known one,
    /// otherwise computed (on all cores: the version being edited is usually the only one, and a
    /// large one has hundreds).
    private static func versionLocks(_ version: SchemaVersion, known: [String: LockHash] = [:]) -> [String: LockHash] {
        var locks: [String: LockHash] = [:]
        for entity in version.entities {
            if let lock = version.versionLock?.entries[entity.name]?.value ?? known[entity.name] { locks[entity.name] = lock }
        }
        let index = EntityIndex(version)
        let unsealed = version.entities.filter { locks[$0.name] == nil }
        for (entity, lock) in zip(unsealed, unsealed.concurrentMap { LockFormat.current.lock(EntityShape($0, in: index)) }) {
            locks[entity.name] = lock
        }
        return locks
    }

    /// Each configuration, in name order, with its entities present in the version.
    private static func configurations(_ model: Model, _ version: SchemaVersion) -> [(name: String, entities: [String])] {
        let names = Set(version.entities.map(\.name))
        return model.manifest.configurations.sorted { $0.name.value < $1.name.value }.map { configuration in
            (configuration.name.value, configuration.entities.map(\.value).filter(names.contains))
        }
    }

    /// `["Cache": ["Thumbnail"], ...]`, each configuration's entities present in the version.
    private static func configurationsLiteral(_ model: Model, _ version: SchemaVersion) -> String {
        let configurations = configurations(model, version).map { configuration in
            SwiftSyntax.stringLiteral(configuration.name) + ": [" + configuration.entities.map(SwiftSyntax.stringLiteral).joined(separator: ", ") + "]"
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
