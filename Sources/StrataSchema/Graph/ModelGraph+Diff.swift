/// The graph of the step between two versions: the newer version, with what the step adds,
/// renames and changes marked, and what it removes drawn too, marked removed. Marks come from
/// the same plan `strata diff` prints, so renames are the hinted ones, never guesses.
extension ModelGraph {
    /// The graph of the step from `old` to `new`.
    public init(model: Model, from old: SchemaVersion, to new: SchemaVersion) {
        self.init(model: model, version: new)
        title = "\(old.name) → \(new.name)"
        let steps = VersionDiff.plan(model: model, from: old, to: new).steps
        let hints = new.migration(from: old.name)
        let oldName = { (entity: String) in hints?.hint(forEntity: entity)?.renamedFrom?.value ?? entity }

        for index in boxes.indices {
            let name = boxes[index].name
            let mine = steps.filter { $0.entity == name }
            boxes[index].mark = Self.mark(mine.filter { $0.property == nil }, added: .addEntity, renamed: .renameEntity,
                                          changing: [.changeEntity, .customEntity, .addUniqueness, .removeUniqueness])
            guard boxes[index].mark != .added else { continue }
            for row in boxes[index].attributes.indices {
                let attribute = boxes[index].attributes[row].name
                boxes[index].attributes[row].mark = Self.mark(mine.filter { $0.property == attribute }, added: .addAttribute,
                                                              renamed: .renameAttribute, changing: [.changeAttribute])
            }
            let previous = old.entity(named: oldName(name))
            for step in mine where step.action == .removeAttribute {
                if let attribute = previous?.attribute(named: step.property ?? "") {
                    boxes[index].attributes.append(Self.row(attribute, mark: .removed))
                }
            }
        }
        for step in steps where step.action == .removeEntity {
            if let entity = old.entity(named: step.entity) { boxes.append(Self.box(entity, mark: .removed)) }
        }
        markLines(steps: steps, old: old, oldName: oldName)
    }

    /// Marks lines added, renamed or changed, and draws removed relationships of the old version.
    private mutating func markLines(steps: [MigrationStep], old: SchemaVersion, oldName: (String) -> String) {
        let relationshipSteps = { (end: End) in steps.filter { $0.entity == end.entity && $0.property == end.relationship } }
        for index in lines.indices {
            // A changed inverse name is the other end's rename, marked there.
            let about = (relationshipSteps(lines[index].from) + relationshipSteps(lines[index].to))
                .filter { !($0.action == .changeRelationship && $0.field == "inverse") }
            lines[index].mark = Self.mark(about, added: .addRelationship, renamed: .renameRelationship, changing: [.changeRelationship])
        }
        let removedEntities = Set(steps.filter { $0.action == .removeEntity }.map(\.entity))
        // Removal steps name the entity as the newer version does; the old lines, as the older one.
        let removed = Set(steps.filter { $0.action == .removeRelationship }.map { "\(oldName($0.entity)).\($0.property ?? "")" })
        for line in Self.lines(of: old) {
            let ends = ["\(line.from.entity).\(line.from.relationship)", "\(line.to.entity).\(line.to.relationship)"]
            let goneWithEntity = removedEntities.contains(line.from.entity) || removedEntities.contains(line.to.entity)
            if goneWithEntity || ends.allSatisfy(removed.contains) {
                lines.append(Line(from: line.from, to: line.to, mark: .removed))
            }
        }
    }

    /// The mark of an element from the steps about it: added, renamed from its old name (with its
    /// other changes, a new storage key among them), changed, or none.
    static func mark(_ steps: [MigrationStep], added: MigrationStep.Action, renamed: MigrationStep.Action,
                     changing: Set<MigrationStep.Action>) -> Mark {
        if steps.contains(where: { $0.action == added }) { return .added }
        let changes = steps.filter { changing.contains($0.action) || ($0.action == renamed && $0.field != "name") }.map(change)
        if let rename = steps.first(where: { $0.action == renamed && $0.field == "name" }) {
            return .renamed(from: rename.old ?? "", changes: changes)
        }
        return changes.isEmpty ? .none : .changed(changes)
    }

    /// `type String → Int64`, `unique false → true`, `custom transform`.
    static func change(_ step: MigrationStep) -> String {
        switch step.action {
        case .customEntity: return "custom transform"
        case .addUniqueness: return "+ unique (\(step.new ?? ""))"
        case .removeUniqueness: return "- unique (\(step.old ?? ""))"
        default: return "\(step.field ?? "") \(step.old ?? "none") → \(step.new ?? "none")"
        }
    }
}
