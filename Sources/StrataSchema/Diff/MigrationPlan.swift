/// How much work a migration step is.
public enum MigrationWeight: String, Hashable, Sendable, Codable, Comparable {
    /// Inferred and run as SQL: no app code, no value conversion.
    case lightweight
    /// Existing values must be converted or supplied: the app's custom step does it.
    case heavyweight

    /// Lightweight before heavyweight.
    public static func < (lhs: MigrationWeight, rhs: MigrationWeight) -> Bool {
        lhs == .lightweight && rhs == .heavyweight
    }
}

/// One change between two versions, as the migration engine and `strata diff` see it.
public struct MigrationStep: Hashable, Sendable, Codable, CustomStringConvertible {
    /// What kind of change.
    public enum Action: String, Hashable, Sendable, Codable {
        /// A new entity.
        case addEntity
        /// An entity dropped with its rows.
        case removeEntity
        /// An entity renamed by a `renamedFrom` hint.
        case renameEntity
        /// An entity's `abstract` or `parent` changed.
        case changeEntity
        /// An entity migrated by the app's custom step.
        case customEntity
        /// A new attribute.
        case addAttribute
        /// An attribute dropped with its values.
        case removeAttribute
        /// An attribute renamed (by hint) or moved to another column.
        case renameAttribute
        /// A field of an attribute changed (type, optionality, default, index, uniqueness, coder).
        case changeAttribute
        /// A new relationship.
        case addRelationship
        /// A relationship dropped with its links.
        case removeRelationship
        /// A relationship renamed (by hint) or moved to another column.
        case renameRelationship
        /// A field of a relationship changed (destination, kind, inverse, delete rule, counts).
        case changeRelationship
        /// A new uniqueness group.
        case addUniqueness
        /// A uniqueness group dropped.
        case removeUniqueness
    }

    /// What kind of change.
    public var action: Action
    /// The entity, by its new name (its old name when removed).
    public var entity: String
    /// The property, by its new name (its old name when removed), if the step concerns one.
    public var property: String?
    /// For a change, the field that differs; for a rename, `name` or `storageKey`.
    public var field: String?
    /// The value before.
    public var old: String?
    /// The value after.
    public var new: String?
    /// Lightweight or heavyweight.
    public var weight: MigrationWeight
    /// Why a step is heavyweight, or a note on a lightweight one.
    public var note: String?

    /// `~ Person.age: type Int16 → Int64 [heavyweight: existing values must be converted]`.
    public var description: String {
        let subject = property.map { "\(entity).\($0)" } ?? entity
        let text: String
        switch action {
        case .addEntity: text = "+ entity \(subject)"
        case .removeEntity: text = "- entity \(subject)"
        case .renameEntity: text = "→ entity \(old ?? "") renamed to \(subject)"
        case .customEntity: text = "* entity \(subject): custom transform"
        case .addAttribute: text = "+ attribute \(subject)"
        case .removeAttribute: text = "- attribute \(subject)"
        case .addRelationship: text = "+ relationship \(subject)"
        case .removeRelationship: text = "- relationship \(subject)"
        case .renameAttribute, .renameRelationship:
            let kind = action == .renameAttribute ? "attribute" : "relationship"
            text = "→ \(kind) \(subject): \(field ?? "name") \(old ?? "") → \(new ?? "")"
        case .changeEntity, .changeAttribute, .changeRelationship:
            text = "~ \(subject): \(field ?? "") \(old ?? "none") → \(new ?? "none")"
        case .addUniqueness: text = "+ uniqueness \(subject) [\(new ?? "")]"
        case .removeUniqueness: text = "- uniqueness \(subject) [\(old ?? "")]"
        }
        return text + " [\(weight.rawValue)\(note.map { ": \($0)" } ?? "")]"
    }
}

/// Everything that changes from one version to another, each step weighed.
public struct MigrationPlan: Hashable, Sendable, Codable {
    /// The model's name.
    public var model: String
    /// The older version.
    public var from: String
    /// The newer version.
    public var to: String
    /// Whether a `migration:` block from `from` supplied rename hints.
    public var usedHints: Bool
    /// The steps, entity by entity, in a stable order.
    public var steps: [MigrationStep]

    /// Heavyweight as soon as one step is.
    public var weight: MigrationWeight { steps.map(\.weight).max() ?? .lightweight }

    /// The plan for people.
    public var text: String {
        let heavy = steps.filter { $0.weight == .heavyweight }.count
        var lines = ["\(model) \(from) → \(to): \(weight.rawValue), \(steps.count) step\(steps.count == 1 ? "" : "s")"
                     + (heavy > 0 ? " (\(heavy) heavyweight)" : "")]
        if steps.isEmpty { lines.append("  no stored change") }
        lines += steps.map { "  \($0)" }
        if !usedHints {
            lines.append("  (no migration block from \(from) in \(to): renames are not inferred, so renamed names show as removed and added)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
