/// The order in which versions follow each other, written as an array or as a tree.
///
/// `[V1, V2, V3]` is a line; `{V1: V3, V2: V3}` lets stores at V1 and at V2 both go straight to V3.
/// Either way every version has at most one next version, and exactly one version (the current
/// one) has none.
public struct MigrationChain: Hashable, Sendable {
    /// One step: stores at `from` migrate to `to`.
    public struct Step: Hashable, Sendable {
        /// The older version.
        public var from: Located<String>
        /// The newer version.
        public var to: Located<String>

        /// Creates a step.
        public init(from: Located<String>, to: Located<String>) {
            self.from = from
            self.to = to
        }
    }

    /// Every version the chain names, in the order first written.
    public var versions: [Located<String>]
    /// The steps.
    public var steps: [Step]
    /// Where the chain is written.
    public var location: SourceLocation

    /// Creates a chain.
    public init(versions: [Located<String>], steps: [Step], location: SourceLocation) {
        self.versions = versions
        self.steps = steps
        self.location = location
    }

    /// The version a store at `version` migrates to next, if any.
    public func successor(of version: String) -> String? {
        steps.first { $0.from.value == version }?.to.value
    }

    /// The versions that migrate straight to `version`.
    public func predecessors(of version: String) -> [String] {
        steps.filter { $0.to.value == version }.map(\.from.value)
    }

    /// The versions no step leaves: in a valid chain, exactly one, the current version.
    public var leaves: [String] {
        let sources = Set(steps.map(\.from.value))
        return versions.map(\.value).filter { !sources.contains($0) }
    }

    /// The path of versions from `start` to the current version, stopping at a loop.
    public func path(from start: String) -> [String] {
        var path = [start]
        var seen: Set<String> = [start]
        var current = start
        while let next = successor(of: current), !seen.contains(next) {
            path.append(next)
            seen.insert(next)
            current = next
        }
        return path
    }
}

/// A named group of entities stored together in one storage.
public struct Configuration: Hashable, Sendable {
    /// The configuration's name.
    public var name: Located<String>
    /// The entities it holds.
    public var entities: [Located<String>]

    /// Creates a configuration.
    public init(name: Located<String>, entities: [Located<String>]) {
        self.name = name
        self.entities = entities
    }
}

/// The contents of `model.yml`.
public struct ModelManifest: Hashable, Sendable {
    /// The model's name.
    public var name: String
    /// The file it was read from.
    public var file: String
    /// The migration chain.
    public var chain: MigrationChain
    /// Named configurations, if any.
    public var configurations: [Configuration]
    /// The `doc:` text, the generated model enum's documentation.
    public var doc: String?
    /// `openAPI: true`: the generated code holds the current version's OpenAPI document
    /// (`<Model>.openAPIDocument`); off by default, as a large model's document is large.
    public var openAPI = false

    /// Creates a manifest.
    public init(name: String, file: String, chain: MigrationChain, configurations: [Configuration] = []) {
        self.name = name
        self.file = file
        self.chain = chain
        self.configurations = configurations
    }
}

/// A whole model: its manifest and every version, as read from one folder.
public struct Model: Hashable, Sendable {
    /// `model.yml`.
    public var manifest: ModelManifest
    /// The versions, sorted by name.
    public var versions: [SchemaVersion]

    /// Creates a model.
    public init(manifest: ModelManifest, versions: [SchemaVersion]) {
        self.manifest = manifest
        self.versions = versions
    }

    /// The version with a name.
    public func version(named name: String) -> SchemaVersion? { versions.first { $0.name == name } }

    /// The version the chain ends at, when the chain has exactly one end.
    public var currentVersion: SchemaVersion? {
        let leaves = manifest.chain.leaves
        guard leaves.count == 1 else { return nil }
        return version(named: leaves[0])
    }
}
