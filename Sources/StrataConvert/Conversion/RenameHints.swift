import StrataSchema
/// The migration block of a version: `renamedFrom` for each entity, attribute and relationship
/// whose renaming identifier names one of the previous version with another name.
///
/// Core Data matches elements of two versions by renaming identifier, an element without one
/// being identified by its name; so does this.
struct RenameHints {
    let current: CoreDataModel
    let previous: CoreDataModel
    private(set) var warnings: [ConversionDiagnostic] = []

    init(current: CoreDataModel, previous: CoreDataModel) {
        self.current = current
        self.previous = previous
    }

    /// `migration:` lines, or none when nothing was renamed.
    mutating func lines(from previousName: String) -> [String] {
        var entityLines: [String] = []
        for entity in current.entities {
            let source = match(entity.name, entity.renamingIdentifier, in: previous.entities.map { ($0.name, $0.renamingIdentifier) },
                               what: "entity '\(entity.name)'", at: entity.position)
            let old = source.flatMap { previous.entity($0) }
            var body: [String] = []
            if let source, source != entity.name { body.append("      renamedFrom: \(YAMLText.scalar(source))") }
            if let old {
                body += properties("attributes", of: entity.name,
                                   entity.attributes.map { ($0.name, $0.renamingIdentifier, $0.position) },
                                   old.attributes.map { ($0.name, $0.renamingIdentifier) })
                body += properties("relationships", of: entity.name,
                                   entity.relationships.map { ($0.name, $0.renamingIdentifier, $0.position) },
                                   old.relationships.map { ($0.name, $0.renamingIdentifier) })
            }
            if !body.isEmpty { entityLines += ["    \(YAMLText.scalar(entity.name)):"] + body }
        }
        guard !entityLines.isEmpty else { return [] }
        return ["migration:", "  from: \(YAMLText.scalar(previousName))", "  entities:"] + entityLines
    }

    private mutating func properties(_ key: String, of entity: String, _ properties: [(String, String?, SourceLocation)],
                                     _ old: [(String, String?)]) -> [String] {
        var lines: [String] = []
        for (name, identifier, position) in properties {
            guard let source = match(name, identifier, in: old, what: "'\(entity).\(name)'", at: position), source != name else { continue }
            lines.append("        \(YAMLText.scalar(name)): {renamedFrom: \(YAMLText.scalar(source))}")
        }
        return lines.isEmpty ? [] : ["      \(key):"] + lines
    }

    /// The name in the previous version of the element with this name and renaming identifier:
    /// the one whose identifier (its renaming identifier, or else its name) is the same.
    private mutating func match(_ name: String, _ identifier: String?, in old: [(String, String?)], what: String,
                                at position: SourceLocation) -> String? {
        let key = identifier ?? name
        if let found = old.first(where: { ($0.1 ?? $0.0) == key }) { return found.0 }
        if let identifier, identifier != name {
            warnings.append(ConversionDiagnostic(.warning, "renaming identifier '\(identifier)' of \(what) matches nothing in the previous version",
                                                 at: position))
        }
        return nil
    }
}
