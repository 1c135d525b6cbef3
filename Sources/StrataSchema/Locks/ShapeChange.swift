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
        compare("entity", "hashModifier", old.hashModifier, hashModifier)
        compare("entity", "sync", String(old.sync ?? false), String(sync ?? false))
        compare("entity", "owner", old.owner, owner)
        changes += Self.memberChanges("attribute", old.attributes, attributes)
        changes += Self.memberChanges("relationship", old.relationships, relationships)
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

    /// Added, removed and changed members, matched by storage key, in storage-key order.
    private static func memberChanges<Member: ShapeMember>(_ kind: String, _ old: [Member], _ new: [Member]) -> [ShapeChange] {
        let before = Dictionary(old.map { ($0.storageKey, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(new.map { ($0.storageKey, $0) }, uniquingKeysWith: { first, _ in first })
        var changes: [ShapeChange] = []
        for key in Set(before.keys).union(after.keys).sorted() {
            let subject = "\(kind) '\(key)'"
            guard let previous = before[key] else {
                changes.append(ShapeChange(kind: .added, subject: subject))
                continue
            }
            guard let current = after[key] else {
                changes.append(ShapeChange(kind: .removed, subject: subject))
                continue
            }
            // By name: a field written only when set (`merge`) is absent from one side.
            let oldFields = Dictionary(previous.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            let newFields = Dictionary(current.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            let names = previous.fields.map(\.name) + current.fields.map(\.name).filter { oldFields[$0] == nil }
            for field in names {
                let (oldValue, newValue) = (oldFields[field] ?? nil, newFields[field] ?? nil)
                guard oldValue != newValue else { continue }
                let show = { (value: String?) in field == "default" ? value.map(DefaultValueParser.quoted) : value }
                changes.append(ShapeChange(kind: .changed, subject: subject, field: field, old: show(oldValue), new: show(newValue)))
            }
            if previous.hashModifier != current.hashModifier {
                changes.append(ShapeChange(kind: .changed, subject: subject, field: "hashModifier", old: previous.hashModifier, new: current.hashModifier))
            }
        }
        return changes
    }
}
