/// The steps within one entity that exists in both versions.
struct EntityDiff {
    let old: Entity
    let new: Entity
    let oldVersion: SchemaVersion
    let newVersion: SchemaVersion
    let hint: EntityHint?

    func steps() -> [MigrationStep] {
        var steps: [MigrationStep] = []
        if old.isAbstract != new.isAbstract {
            steps.append(change(.changeEntity, nil, "abstract", String(old.isAbstract), String(new.isAbstract),
                                new.isAbstract ? .heavyweight : .lightweight,
                                new.isAbstract ? "existing rows of '\(new.name)' need a concrete entity" : nil))
        }
        if old.parent?.value != new.parent?.value {
            steps.append(change(.changeEntity, nil, "parent", old.parent?.value, new.parent?.value, .lightweight,
                                "rows move to the hierarchy's table, and references follow them"))
        }
        if old.hashModifier != new.hashModifier {
            steps.append(change(.changeEntity, nil, "hashModifier", old.hashModifier, new.hashModifier, .lightweight, Self.modifierNote))
        }
        steps += attributeSteps()
        steps += relationshipSteps()
        let storageKey = { (entity: Entity, name: String) in entity.attribute(named: name)?.storageKey ?? name }
        let oldGroups = Set(old.uniqueness.map { $0.map { storageKey(old, $0.value) }.sorted() })
        let newGroups = Set(new.uniqueness.map { $0.map { storageKey(new, $0.value) }.sorted() })
        for group in oldGroups.subtracting(newGroups).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            steps.append(change(.removeUniqueness, nil, nil, group.joined(separator: ", "), nil, .lightweight, nil))
        }
        for group in newGroups.subtracting(oldGroups).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            steps.append(change(.addUniqueness, nil, nil, nil, group.joined(separator: ", "), .lightweight, "fails if existing rows repeat a value"))
        }
        return steps
    }

    /// What a step that changes only a `hashModifier` means.
    static let modifierNote = "nothing stored changes; the step exists so that a custom transform can rework the values"

    private func change(_ action: MigrationStep.Action, _ property: String?, _ field: String?, _ before: String?, _ after: String?,
                        _ weight: MigrationWeight, _ note: String?) -> MigrationStep {
        VersionDiff.step(action, new.name, property: property, field: field, old: before, new: after, weight: weight, note: note)
    }

    /// Pairs each new property with its old self: by rename hint or same name first, then, for
    /// what is left, by the same storage key (the same column under a new Swift name).
    private func match<P>(_ newProperties: [P], _ oldProperties: [P], hints: [PropertyHint], name: (P) -> String,
                          storageKey: (P) -> String) -> (pairs: [(P, P)], added: [P], removed: [P]) {
        // Most properties keep their names from one version to the next: then, with no hints and
        // no name twice, each pairs with its namesake, which is what the search below finds.
        let newNames = newProperties.map(name)
        if hints.isEmpty, newNames == oldProperties.map(name), Set(newNames).count == newNames.count {
            return (Array(zip(oldProperties, newProperties)), [], [])
        }
        var previousOf: [Int: Int] = [:]
        var used: Set<Int> = []
        // By name and by storage key, first of each, so a large entity's diff is not quadratic.
        let oldByName = Dictionary(oldProperties.indices.map { (name(oldProperties[$0]), $0) }, uniquingKeysWith: { first, _ in first })
        let oldByStorageKey = Dictionary(grouping: oldProperties.indices, by: { storageKey(oldProperties[$0]) })
        for (index, propertyName) in newNames.enumerated() {
            let wanted = hints.first { $0.name.value == propertyName }?.renamedFrom?.value ?? propertyName
            if let match = oldByName[wanted], !used.contains(match) {
                previousOf[index] = match
                used.insert(match)
            }
        }
        for (index, property) in newProperties.enumerated() where previousOf[index] == nil {
            let isHinted = hints.contains { $0.name.value == newNames[index] && $0.renamedFrom != nil }
            if !isHinted, let match = oldByStorageKey[storageKey(property)]?.first(where: { !used.contains($0) }) {
                previousOf[index] = match
                used.insert(match)
            }
        }
        let pairs = newProperties.indices.compactMap { index in previousOf[index].map { (oldProperties[$0], newProperties[index]) } }
        let added = newProperties.indices.filter { previousOf[$0] == nil }.map { newProperties[$0] }
        let removed = oldProperties.indices.filter { !used.contains($0) }.map { oldProperties[$0] }
        return (pairs, added, removed)
    }

    private func attributeSteps() -> [MigrationStep] {
        let stored = { (entity: Entity) in entity.attributes.filter(\.isStored).sorted { $0.name < $1.name } }
        let matched = match(stored(new), stored(old), hints: hint?.attributes ?? [], name: \.name, storageKey: \.storageKey)
        var steps: [MigrationStep] = []
        for (before, after) in matched.pairs {
            steps += AttributeDiff(entity: new.name, old: before, new: after).steps()
            if before.hashModifier != after.hashModifier {
                steps.append(change(.changeAttribute, after.name, "hashModifier", before.hashModifier, after.hashModifier, .lightweight, Self.modifierNote))
            }
        }
        for attribute in matched.added {
            let fillable = attribute.isOptional || attribute.defaultValue != nil || attribute.initial != nil
            steps.append(change(.addAttribute, attribute.name, nil, nil, nil, fillable ? .lightweight : .heavyweight,
                                fillable ? nil : "existing rows need a value: make it optional or give it a default"))
        }
        for attribute in matched.removed {
            steps.append(VersionDiff.step(.removeAttribute, new.name, property: attribute.name, weight: .lightweight, note: "its values are dropped"))
        }
        return steps
    }

    private func relationshipSteps() -> [MigrationStep] {
        let sorted = { (entity: Entity) in entity.relationships.sorted { $0.name < $1.name } }
        let matched = match(sorted(new), sorted(old), hints: hint?.relationships ?? [], name: \.name, storageKey: \.storageKey)
        var steps: [MigrationStep] = []
        // A destination renamed by its own hint is the same entity: its rows keep their ids.
        let hints = newVersion.migration(from: oldVersion.name)
        for (before, after) in matched.pairs {
            let property = after.name
            if before.name != after.name {
                steps.append(change(.renameRelationship, property, "name", before.name, after.name, .lightweight, nil))
            }
            if before.storageKey != after.storageKey {
                steps.append(change(.renameRelationship, property, "storageKey", before.storageKey, after.storageKey, .lightweight, nil))
            }
            if before.destination != (hints?.hint(forEntity: after.destination)?.renamedFrom?.value ?? after.destination) {
                steps.append(change(.changeRelationship, property, "destination", before.destination, after.destination, .heavyweight,
                                    "links must be remapped to the new destination"))
            }
            if before.hashModifier != after.hashModifier {
                steps.append(change(.changeRelationship, property, "hashModifier", before.hashModifier, after.hashModifier, .lightweight, Self.modifierNote))
            }
            if before.kind != after.kind {
                // To-one → to-many keeps every link; to-many → to-one could cut an object's links to one.
                let heavy = before.kind.isToMany && !after.kind.isToMany
                steps.append(change(.changeRelationship, property, "kind", before.kind.rawValue, after.kind.rawValue,
                                    heavy ? .heavyweight : .lightweight, heavy ? "an object's links would be cut to one" : "every link is kept"))
            }
            if before.inverse != after.inverse {
                steps.append(change(.changeRelationship, property, "inverse", before.inverse, after.inverse, .lightweight, nil))
            }
            if before.deleteRule != after.deleteRule {
                steps.append(change(.changeRelationship, property, "deleteRule", before.deleteRule.rawValue, after.deleteRule.rawValue, .lightweight, nil))
            }
            if before.minCount != after.minCount {
                steps.append(change(.changeRelationship, property, "min", before.minCount.map(String.init), after.minCount.map(String.init), .lightweight, nil))
            }
            if before.maxCount != after.maxCount {
                steps.append(change(.changeRelationship, property, "max", before.maxCount.map(String.init), after.maxCount.map(String.init), .lightweight, nil))
            }
        }
        for relationship in matched.added {
            steps.append(change(.addRelationship, relationship.name, nil, nil, nil, .lightweight, nil))
        }
        for relationship in matched.removed {
            steps.append(VersionDiff.step(.removeRelationship, new.name, property: relationship.name, weight: .lightweight, note: "its links are dropped"))
        }
        return steps
    }
}
