/// Checks that configurations name entities of the current version and keep each hierarchy,
/// which shares one table, in the same configurations.
enum ConfigurationValidator {
    static func validate(_ model: Model, into diagnostics: inout Diagnostics) {
        guard let current = model.currentVersion, !model.manifest.configurations.isEmpty else { return }
        let names = current.entities.map(\.name)
        var configurationsOf: [String: Set<String>] = [:]
        var firstListing: [String: SourceLocation] = [:]
        for configuration in model.manifest.configurations {
            for entity in configuration.entities {
                guard current.entity(named: entity.value) != nil else {
                    diagnostics.error("configuration '\(configuration.name.value)' names '\(entity.value)', which is not an entity of version '\(current.name)'"
                                      + Suggestion.hint(for: entity.value, in: names), at: entity.location)
                    continue
                }
                configurationsOf[entity.value, default: []].insert(configuration.name.value)
                firstListing[entity.value] = min(firstListing[entity.value] ?? entity.location, entity.location)
            }
        }
        for entity in current.entities {
            let root = current.root(of: entity)
            guard root.name != entity.name else { continue }
            let own = configurationsOf[entity.name] ?? []
            let roots = configurationsOf[root.name] ?? []
            guard own != roots else { continue }
            let ownText = own.isEmpty ? "no configuration" : own.sorted().joined(separator: ", ")
            let rootText = roots.isEmpty ? "no configuration" : roots.sorted().joined(separator: ", ")
            diagnostics.error("entity '\(entity.name)' is in \(ownText) but its root entity '\(root.name)' is in \(rootText); a hierarchy shares one table, so list them together",
                              at: firstListing[entity.name] ?? firstListing[root.name] ?? model.manifest.chain.location)
        }
    }
}
