/// Every version of a model, the chain between them, and the Swift classes of the current one:
/// what the generator emits as `<Model>.schemaHistory` and what a ``DataStack`` is made from.
public struct SchemaHistory: Sendable {
    /// The model's name, recorded in every store.
    public let modelName: String
    /// Every version, oldest first.
    public let versions: [ModelVersion]
    /// How versions follow each other.
    public let migrationChain: MigrationChain
    /// The version the app's classes are generated from.
    public let currentVersion: ModelVersion
    /// Entity name to its generated class.
    let entityTypes: [String: StrataObject.Type]

    /// A history whose current version is `current`; `entityTypes` are the generated classes of it.
    public init(model: String, versions: [ModelVersion], migrationChain: MigrationChain, current: String,
                entityTypes: [StrataObject.Type]) {
        precondition(versions.contains { $0.name == current }, "the schema history has no version '\(current)'")
        self.modelName = model
        self.versions = versions
        self.migrationChain = migrationChain
        self.currentVersion = versions.first { $0.name == current }!
        self.entityTypes = Dictionary(entityTypes.map { ($0.entityName, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The version whose lock is `lock`, if any.
    public func version(matching lock: VersionLock) -> ModelVersion? {
        versions.first { $0.versionLock == lock }
    }
}
