/// Reads `model.yml`: the model's name, its migration chain and its configurations.
struct ManifestParser {
    static let keys = ["model", "migrationChain", "configurations", "doc", "openAPI"]

    var diagnostics = Diagnostics()

    /// `versionFiles` lets a model with a single version leave the chain out.
    mutating func parse(_ root: YAMLNode, file: String, singleVersion: String?) -> ModelManifest? {
        guard let fields = Fields(root, context: "model.yml", allowed: Self.keys, diagnostics: &diagnostics) else { return nil }
        let name = fields.name("model", required: true, what: "model", diagnostics: &diagnostics)
        let chain: MigrationChain?
        if let node = fields["migrationChain"] {
            chain = parseChain(node)
        } else if let singleVersion {
            chain = MigrationChain(versions: [Located(singleVersion, at: root.location)], steps: [], location: root.location)
        } else {
            diagnostics.error("model.yml is missing 'migrationChain'; list the versions oldest first, such as [V1, V2]", at: root.location)
            chain = nil
        }
        let configurations = fields.entries("configurations", diagnostics: &diagnostics).compactMap { parseConfiguration($0.name, $0.value) }
        guard let name, let chain else { return nil }
        var manifest = ModelManifest(name: name.value, file: file, chain: chain, configurations: configurations)
        manifest.doc = fields.string("doc", diagnostics: &diagnostics)?.value
        manifest.openAPI = fields.bool("openAPI", diagnostics: &diagnostics)
        return manifest
    }

    private mutating func versionName(_ node: YAMLNode) -> Located<String>? {
        guard let text = node.scalarText, !node.isNull else {
            diagnostics.error("'migrationChain' names versions, so it cannot hold \(node.kindDescription)", at: node.location)
            return nil
        }
        guard Identifier.isValid(text) else {
            diagnostics.error("'\(text)' is not a valid version name; \(Identifier.rule)", at: node.location)
            return nil
        }
        return Located(text, at: node.location)
    }

    /// `[V1, V2, V3]` or `{V1: V3, V2: V3}`.
    private mutating func parseChain(_ node: YAMLNode) -> MigrationChain? {
        if let items = node.items {
            var versions: [Located<String>] = []
            for item in items {
                guard let version = versionName(item) else { continue }
                if let first = versions.first(where: { $0.value == version.value }) {
                    diagnostics.error("version '\(version.value)' appears twice in 'migrationChain' (first at line \(first.location.line), column \(first.location.column))",
                                      at: version.location)
                    continue
                }
                versions.append(version)
            }
            guard !items.isEmpty else {
                diagnostics.error("'migrationChain' is empty; list at least one version", at: node.location)
                return nil
            }
            guard !versions.isEmpty else { return nil }
            let steps = zip(versions, versions.dropFirst()).map { MigrationChain.Step(from: $0, to: $1) }
            return MigrationChain(versions: versions, steps: steps, location: node.location)
        }
        if let entries = node.entries {
            guard !entries.isEmpty else {
                diagnostics.error("'migrationChain' is empty; list at least one version", at: node.location)
                return nil
            }
            var versions: [Located<String>] = []
            var steps: [MigrationChain.Step] = []
            for entry in entries {
                guard let from = versionName(entry.key), let to = versionName(entry.value) else { continue }
                steps.append(.init(from: from, to: to))
                for version in [from, to] where !versions.contains(where: { $0.value == version.value }) {
                    versions.append(version)
                }
            }
            return MigrationChain(versions: versions, steps: steps, location: node.location)
        }
        diagnostics.error("'migrationChain' must be a sequence such as [V1, V2] or a mapping such as {V1: V3, V2: V3}, not \(node.kindDescription)",
                          at: node.location)
        return nil
    }

    private mutating func parseConfiguration(_ name: Located<String>, _ node: YAMLNode) -> Configuration? {
        guard Identifier.isValid(name.value) else {
            diagnostics.error("'\(name.value)' is not a valid configuration name; \(Identifier.rule)", at: name.location)
            return nil
        }
        guard let items = node.items else {
            diagnostics.error("configuration '\(name.value)' must be a sequence of entity names, not \(node.kindDescription)", at: node.location)
            return nil
        }
        let entities = items.compactMap { item -> Located<String>? in
            guard let text = item.scalarText, !item.isNull else {
                diagnostics.error("configuration '\(name.value)' lists \(item.kindDescription) where an entity name belongs", at: item.location)
                return nil
            }
            return Located(text, at: item.location)
        }
        return Configuration(name: name, entities: entities)
    }
}
