/// A model version as a diagram: boxes for entities with their attributes, a line per
/// relationship pair, a dashed line from each subentity to its parent, each element marked with
/// how it changed when the graph shows the step between two versions.
public struct ModelGraph: Hashable, Sendable {
    /// How an element changed between the versions a diff graph compares.
    public enum Mark: Hashable, Sendable {
        /// Unchanged, or not a diff.
        case none
        /// New in the newer version.
        case added
        /// Gone from the newer version.
        case removed
        /// Renamed from this name (and possibly changed too).
        case renamed(from: String, changes: [String])
        /// Changed as described (`type String → Int64`).
        case changed([String])

        /// A short description: `added`, `renamed from age; type Int16 → Int64`.
        public var text: String? {
            switch self {
            case .none: return nil
            case .added: return "added"
            case .removed: return "removed"
            case .renamed(let from, let changes): return (["renamed from \(from)"] + changes).joined(separator: "; ")
            case .changed(let changes): return changes.joined(separator: "; ")
            }
        }
    }

    /// An attribute row of an entity's box.
    public struct AttributeRow: Hashable, Sendable {
        /// Its name.
        public var name: String
        /// Its type (`String`, or `Codable` for a coded value).
        public var type: String
        /// Whether its values are unique.
        public var isUnique: Bool
        /// What else to know: `optional`, `default 0`, `indexed`, `virtual`, `transient`, `Codable Settings (json)`.
        public var details: [String]
        /// How it changed.
        public var mark: Mark
    }

    /// An entity's box.
    public struct Box: Hashable, Sendable {
        /// The entity's name.
        public var name: String
        /// Whether it is abstract.
        public var isAbstract: Bool
        /// Its parent entity.
        public var parent: String?
        /// Its own attributes, in file order, then removed ones.
        public var attributes: [AttributeRow]
        /// How it changed.
        public var mark: Mark
    }

    /// One side of a relationship line.
    public struct End: Hashable, Sendable {
        /// The entity.
        public var entity: String
        /// The relationship from that entity.
        public var relationship: String
        /// Its kind.
        public var kind: RelationshipKind
        /// Its minimum count, for a to-many.
        public var minCount: Int?
    }

    /// A relationship and its inverse, drawn once.
    public struct Line: Hashable, Sendable {
        /// The side the line is drawn from.
        public var from: End
        /// The side it points at (the inverse).
        public var to: End
        /// How it changed.
        public var mark: Mark
    }

    /// The model's name.
    public var model: String
    /// The version shown, or `V1 → V2`.
    public var title: String
    /// The entities, in the version's order (removed ones last).
    public var boxes: [Box]
    /// The relationship lines.
    public var lines: [Line]

    /// The graph of one version.
    public init(model: Model, version: SchemaVersion) {
        self.model = model.manifest.name
        title = version.name
        boxes = version.entities.map { Self.box($0) }
        lines = Self.lines(of: version)
    }

    /// A box with every attribute unmarked.
    static func box(_ entity: Entity, mark: Mark = .none) -> Box {
        Box(name: entity.name, isAbstract: entity.isAbstract, parent: entity.parent?.value,
            attributes: entity.attributes.map { row($0) }, mark: mark)
    }

    static func row(_ attribute: Attribute, mark: Mark = .none) -> AttributeRow {
        var details: [String] = []
        if attribute.type == .codable { details.append("Codable \(attribute.swiftType ?? "")" + (attribute.coder.map { " (\($0.rawValue))" } ?? "")) }
        if attribute.isOptional { details.append("optional") }
        if let value = attribute.defaultValue { details.append("default " + (attribute.type == .string ? "'\(value)'" : value)) }
        if let initial = attribute.initial { details.append("initial \(initial.rawValue)") }
        if attribute.isIndexed { details.append("indexed") }
        if let kind = attribute.notStoredKind { details.append(kind) }
        return AttributeRow(name: attribute.name, type: attribute.type.rawValue, isUnique: attribute.isUnique, details: details, mark: mark)
    }

    /// Each relationship pair once, drawn from the side whose entity and name sort first.
    static func lines(of version: SchemaVersion) -> [Line] {
        var lines: [Line] = []
        for entity in version.entities {
            for relationship in entity.relationships {
                guard let destination = version.entity(named: relationship.destination),
                      let inverse = destination.relationship(named: relationship.inverse) else { continue }
                let here = End(entity: entity.name, relationship: relationship.name, kind: relationship.kind, minCount: relationship.minCount)
                let there = End(entity: destination.name, relationship: inverse.name, kind: inverse.kind, minCount: inverse.minCount)
                guard (here.entity, here.relationship) <= (there.entity, there.relationship) else { continue }
                lines.append(Line(from: here, to: there, mark: .none))
            }
        }
        return lines
    }
}
