/// Every version of a model, the chain between them, and the Swift classes of the current one:
/// what the generator emits as `<Model>.schemaHistory` and what a ``DataStack`` is made from.
///
/// Only the current version is built with the history. Older versions are looked up by name on
/// first use (to recognise an older store, or to migrate one), so opening a store that is already
/// current does no work for a long history.
public struct SchemaHistory: Sendable {
    /// The model's name, recorded in every store.
    public let modelName: String
    /// The names of every version, oldest first.
    public let versionNames: [String]
    /// How versions follow each other.
    public let migrationChain: MigrationChain
    /// The version the app's classes are generated from.
    public let currentVersion: ModelVersion
    /// Entity name to its generated class.
    let entityTypes: [String: StrataObject.Type]
    /// The app's custom migration steps, bound by the generated code.
    public let customSteps: [CustomMigrationStep]
    /// Builds (or returns the already built) version with a name.
    private let lookUp: @Sendable (String) -> ModelVersion?

    /// A history whose versions are built on demand: `version` returns the version with a name,
    /// `current` is the one the app's classes (`entityTypes`) are generated from.
    ///
    /// This is the form the generator emits: each version is a `static let`, which Swift builds once,
    /// on first access, so a version no store needs is never built.
    public init(model: String, versionNames: [String], migrationChain: MigrationChain, current: ModelVersion,
                entityTypes: [StrataObject.Type], customSteps: [CustomMigrationStep] = [],
                version: @escaping @Sendable (String) -> ModelVersion?) {
        precondition(versionNames.contains(current.name), "the schema history has no version '\(current.name)'")
        self.modelName = model
        self.versionNames = versionNames
        self.migrationChain = migrationChain
        self.currentVersion = current
        self.entityTypes = Dictionary(entityTypes.map { ($0.entityName, $0) }, uniquingKeysWith: { first, _ in first })
        self.customSteps = customSteps
        let currentName = current.name
        self.lookUp = { name in name == currentName ? current : version(name) }
    }

    /// A history of versions already built; `entityTypes` are the generated classes of `current`.
    public init(model: String, versions: [ModelVersion], migrationChain: MigrationChain, current: String,
                entityTypes: [StrataObject.Type], customSteps: [CustomMigrationStep] = []) {
        guard let currentVersion = versions.first(where: { $0.name == current }) else {
            preconditionFailure("the schema history has no version '\(current)'")
        }
        let byName = Dictionary(versions.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.init(model: model, versionNames: versions.map(\.name), migrationChain: migrationChain, current: currentVersion,
                  entityTypes: entityTypes, customSteps: customSteps, version: { byName[$0] })
    }

    /// Every version, oldest first; builds those not built yet.
    public var versions: [ModelVersion] { versionNames.compactMap(lookUp) }

    /// The version with a name, built on first use; nil when the history has none.
    public func version(named name: String) -> ModelVersion? {
        versionNames.contains(name) ? lookUp(name) : nil
    }

    /// The version whose lock is `lock`, if any. `hint`, a version name such as the one a store records,
    /// is tried first, so recognising a store builds no other version when the hint is right.
    public func version(matching lock: VersionLock, hint: String? = nil) -> ModelVersion? {
        if currentVersion.versionLock == lock { return currentVersion }
        if let hint, let hinted = version(named: hint), hinted.versionLock == lock { return hinted }
        return versions.first { $0.versionLock == lock }
    }

    /// The versions a store at `source` passes through to reach the current version, `source`
    /// first and the current version last; nil when the chain leads from `source` elsewhere or
    /// nowhere.
    public func migrationPath(from source: String) -> [String]? {
        var path = [source]
        while let last = path.last, last != currentVersion.name {
            guard let next = migrationChain.successors[last], !path.contains(next) else { return nil }
            path.append(next)
        }
        return path
    }

    /// The custom step producing `entity` of `destination` from `source`, if the app has one.
    func customStep(from source: String, to destination: String, entity: String) -> CustomMigrationStep? {
        customSteps.first { $0.sourceVersion == source && $0.destinationVersion == destination && $0.entity == entity }
    }
}
