/// Compares two versions and weighs every change. Renames come only from the newer version's
/// `migration:` block; a name that disappears and another that appears are never guessed to be one.
public enum VersionDiff {
    /// The plan from `old` to `new` in `model`.
    public static func plan(model: Model, from old: SchemaVersion, to new: SchemaVersion) -> MigrationPlan {
        let hints = new.migration(from: old.name)
        var steps: [MigrationStep] = []
        var matchedOld: Set<String> = []
        let oldEntities = EntityIndex(old)
        for entity in new.entities.sorted(by: { $0.name < $1.name }) {
            let hint = hints?.hint(forEntity: entity.name)
            guard let previous = oldEntities.entity(named: hint?.renamedFrom?.value ?? entity.name) else {
                steps.append(step(.addEntity, entity.name, weight: .lightweight))
                continue
            }
            matchedOld.insert(previous.name)
            if previous.name != entity.name {
                steps.append(step(.renameEntity, entity.name, field: "name", old: previous.name, new: entity.name, weight: .lightweight))
            }
            if hint?.isCustom == true {
                steps.append(step(.customEntity, entity.name, weight: .heavyweight, note: "the app supplies this step"))
            }
            steps += EntityDiff(old: previous, new: entity, oldVersion: old, newVersion: new, hint: hint).steps()
        }
        for entity in old.entities.sorted(by: { $0.name < $1.name }) where !matchedOld.contains(entity.name) {
            steps.append(step(.removeEntity, entity.name, weight: .lightweight, note: "its rows are dropped"))
        }
        return MigrationPlan(model: model.manifest.name, from: old.name, to: new.name, usedHints: hints != nil, steps: steps)
    }

    static func step(_ action: MigrationStep.Action, _ entity: String, property: String? = nil, field: String? = nil,
                     old: String? = nil, new: String? = nil, weight: MigrationWeight, note: String? = nil) -> MigrationStep {
        MigrationStep(action: action, entity: entity, property: property, field: field, old: old, new: new, weight: weight, note: note)
    }
}

