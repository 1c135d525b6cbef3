/// Every step of the migration chain must be one the runtime can run: a change that could lose
/// stored values (a narrowing or lossy type change, a nil becoming required without a default, a
/// new coder, rows moving between tables) needs the entity's step to be `transform: custom`.
/// Checked only on a model that is otherwise valid, so a mistyped hint is reported once, as itself.
enum MigrationStepValidator {
    static func validate(_ model: Model, into diagnostics: inout Diagnostics) {
        // Each step's plan on its own core: diffing two large versions is most of validating them.
        let perStep = model.manifest.chain.steps.concurrentMap { step in
            var found = Diagnostics()
            guard let old = model.version(named: step.from.value), let new = model.version(named: step.to.value) else { return found }
            let hints = new.migration(from: old.name)
            let plan = VersionDiff.plan(model: model, from: old, to: new)
            for change in plan.steps where change.weight == .heavyweight && change.action != .customEntity {
                guard hints?.hint(forEntity: change.entity)?.isCustom != true else { continue }
                let location = hints?.location ?? new.location
                var text = change.description.dropFirst(2)
                if let bracket = text.range(of: " [", options: .backwards) { text = text[..<bracket.lowerBound] }
                found.error("\(old.name) → \(new.name) cannot be inferred: \(text)" + (change.note.map { " (\($0))" } ?? "")
                            + "; mark \(change.entity) 'transform: custom' in the migration block from \(old.name) and implement its step",
                            at: location)
            }
            return found
        }
        for found in perStep { diagnostics.append(contentsOf: found.all) }
    }
}
