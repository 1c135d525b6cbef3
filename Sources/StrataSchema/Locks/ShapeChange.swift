/// One difference between two shapes of an entity, named precisely enough to act on:
/// `attribute 'age': type Int16 → Int64`.
public struct ShapeChange: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Whether something appeared, disappeared or changed.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// Present now, absent before.
        case added
        /// Present before, absent now.
        case removed
        /// Present in both with a different value.
        case changed
    }

    /// Added, removed or changed.
    public var kind: Kind
    /// What changed: `entity`, `attribute 'age'`, `relationship 'pets'`, `uniqueness [a, b]`.
    public var subject: String
    /// For a change, the field that differs (`type`, `optional`, `default`, ...).
    public var field: String?
    /// The value before, as text.
    public var old: String?
    /// The value now, as text.
    public var new: String?

    /// `+ attribute 'nickname'`, `- relationship 'pets'`, `~ attribute 'age': type Int16 → Int64`.
    public var description: String {
        switch kind {
        case .added: return "+ \(subject)"
        case .removed: return "- \(subject)"
        case .changed: return "~ \(subject): \(field ?? "value") \(old ?? "none") → \(new ?? "none")"
        }
    }
}

extension EntityShape {
    /// What changed from `old` to this shape, in a stable order: entity fields, attributes,
    /// relationships, uniqueness groups.
    public func changes(since old: EntityShape) -> [ShapeChange] {
        var changes: [ShapeChange] = []
        func compare(_ subject: String, _ field: String, _ before: String?, _ after: String?) {
            if before != after { changes.append(ShapeChange(kind: .changed, subject: subject, field: field, old: before, new: after)) }
        }
        compare("entity", "abstract", String(old.abstract), String(abstract))
        compare("entity", "parent", old.parent, parent)
        let oldAttributes = Dictionary(old.attributes.map { ($0.storageKey, $0) }, uniquingKeysWith: { a, _ in a })
        let newAttributes = Dictionary(attributes.map { ($0.storageKey, $0) }, uniquingKeysWith: { a, _ in a })
        for key in Set(oldAttributes.keys).union(newAttributes.keys).sorted() {
            let subject = "attribute '\(key)'"
            switch (oldAttributes[key], newAttributes[key]) {
            case (nil, _?): changes.append(ShapeChange(kind: .added, subject: subject))
            case (_?, nil): changes.append(ShapeChange(kind: .removed, subject: subject))
            case let (before?, after?):
                compare(subject, "type", before.type.rawValue, after.type.rawValue)
                compare(subject, "optional", String(before.optional), String(after.optional))
                compare(subject, "default", before.defaultValue.map(DefaultValueParser.quoted), after.defaultValue.map(DefaultValueParser.quoted))
                compare(subject, "initial", before.initial?.rawValue, after.initial?.rawValue)
                compare(subject, "indexed", String(before.indexed), String(after.indexed))
                compare(subject, "unique", String(before.unique), String(after.unique))
                compare(subject, "coder", before.coder?.rawValue, after.coder?.rawValue)
            case (nil, nil): break
            }
        }
        let oldRelationships = Dictionary(old.relationships.map { ($0.storageKey, $0) }, uniquingKeysWith: { a, _ in a })
        let newRelationships = Dictionary(relationships.map { ($0.storageKey, $0) }, uniquingKeysWith: { a, _ in a })
        for key in Set(oldRelationships.keys).union(newRelationships.keys).sorted() {
            let subject = "relationship '\(key)'"
            switch (oldRelationships[key], newRelationships[key]) {
            case (nil, _?): changes.append(ShapeChange(kind: .added, subject: subject))
            case (_?, nil): changes.append(ShapeChange(kind: .removed, subject: subject))
            case let (before?, after?):
                compare(subject, "destination", before.destination, after.destination)
                compare(subject, "inverse", before.inverse, after.inverse)
                compare(subject, "kind", before.kind.rawValue, after.kind.rawValue)
                compare(subject, "deleteRule", before.deleteRule.rawValue, after.deleteRule.rawValue)
                compare(subject, "min", before.minCount.map(String.init), after.minCount.map(String.init))
                compare(subject, "max", before.maxCount.map(String.init), after.maxCount.map(String.init))
            case (nil, nil): break
            }
        }
        let oldGroups = Set(old.uniqueness)
        let newGroups = Set(uniqueness)
        for group in old.uniqueness where !newGroups.contains(group) {
            changes.append(ShapeChange(kind: .removed, subject: "uniqueness [\(group.joined(separator: ", "))]"))
        }
        for group in uniqueness where !oldGroups.contains(group) {
            changes.append(ShapeChange(kind: .added, subject: "uniqueness [\(group.joined(separator: ", "))]"))
        }
        return changes
    }
}
