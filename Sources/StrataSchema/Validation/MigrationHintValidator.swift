/// Checks that every `migration:` block migrates from a direct predecessor in the chain and that
/// every hint names something that exists on its side of the step.
struct MigrationHintValidator {
    let model: Model
    let version: SchemaVersion

    func validate(into diagnostics: inout Diagnostics) {
        var seen: [String: SourceLocation] = [:]
        for hints in version.migrations {
            let from = hints.from
            if let first = seen[from.value] {
                diagnostics.error("a second migration block from '\(from.value)' (the first is at line \(first.line), column \(first.column))", at: from.location)
                continue
            }
            seen[from.value] = from.location
            guard let old = model.version(named: from.value) else {
                diagnostics.error("migration block of version '\(version.name)' is from '\(from.value)', which is not a version of the model",
                                  at: from.location)
                continue
            }
            let predecessors = model.manifest.chain.predecessors(of: version.name)
            guard predecessors.contains(from.value) else {
                let actual = model.manifest.chain.successor(of: from.value).map { "the chain migrates '\(from.value)' to '\($0)'" }
                    ?? "the chain does not migrate '\(from.value)' to '\(version.name)'"
                diagnostics.error("migration block of version '\(version.name)' is from '\(from.value)', but \(actual)", at: from.location)
                continue
            }
            checkEntities(hints, old: old, into: &diagnostics)
        }
    }

    private func checkEntities(_ hints: MigrationHints, old: SchemaVersion, into diagnostics: inout Diagnostics) {
        var renamedSources: [String: String] = [:]
        for hint in hints.entities {
            let name = hint.name
            if hint.isDeleted {
                if version.entity(named: name.value) != nil {
                    diagnostics.error("migration hint deletes entity '\(name.value)', but version '\(version.name)' still has it", at: name.location)
                } else if old.entity(named: name.value) == nil {
                    diagnostics.error("migration hint deletes entity '\(name.value)', which is not an entity of version '\(old.name)'"
                                      + Suggestion.hint(for: name.value, in: old.entities.map(\.name)), at: name.location)
                }
                continue
            }
            guard let entity = version.entity(named: name.value) else {
                diagnostics.error("migration hint names entity '\(name.value)', which is not an entity of version '\(version.name)'"
                                  + Suggestion.hint(for: name.value, in: version.entities.map(\.name)), at: name.location)
                continue
            }
            var oldEntity = old.entity(named: name.value)
            if let source = hint.renamedFrom {
                oldEntity = old.entity(named: source.value)
                if oldEntity == nil {
                    diagnostics.error("entity '\(name.value)' is renamed from '\(source.value)', which is not an entity of version '\(old.name)'"
                                      + Suggestion.hint(for: source.value, in: old.entities.map(\.name)), at: source.location)
                } else if let other = renamedSources[source.value] {
                    diagnostics.error("entities '\(other)' and '\(name.value)' are both renamed from '\(source.value)'", at: source.location)
                }
                renamedSources[source.value] = name.value
            }
            checkProperties(hint.attributes, kind: "attribute", new: entity.attributes.map(\.name),
                            old: oldEntity?.attributes.map(\.name), entity: entity.name, oldVersion: old.name, into: &diagnostics)
            checkProperties(hint.relationships, kind: "relationship", new: entity.relationships.map(\.name),
                            old: oldEntity?.relationships.map(\.name), entity: entity.name, oldVersion: old.name, into: &diagnostics)
        }
    }

    private func checkProperties(_ hints: [PropertyHint], kind: String, new: [String], old: [String]?, entity: String,
                                 oldVersion: String, into diagnostics: inout Diagnostics) {
        var sources: [String: String] = [:]
        for hint in hints {
            guard new.contains(hint.name.value) else {
                diagnostics.error("migration hint names \(kind) '\(entity).\(hint.name.value)', which version '\(version.name)' does not have"
                                  + Suggestion.hint(for: hint.name.value, in: new), at: hint.name.location)
                continue
            }
            guard let source = hint.renamedFrom, let old else { continue }
            if !old.contains(source.value) {
                diagnostics.error("\(kind) '\(entity).\(hint.name.value)' is renamed from '\(source.value)', which version '\(oldVersion)' does not have"
                                  + Suggestion.hint(for: source.value, in: old), at: source.location)
            } else if let other = sources[source.value] {
                diagnostics.error("\(kind)s '\(other)' and '\(hint.name.value)' of '\(entity)' are both renamed from '\(source.value)'", at: source.location)
            }
            sources[source.value] = hint.name.value
        }
    }
}
