/// Checks the entities of one version: inheritance, name and storage clashes, uniqueness groups.
struct EntityValidator {
    let version: SchemaVersion

    func validate(into diagnostics: inout Diagnostics) {
        checkEntityNames(into: &diagnostics)
        checkInheritance(into: &diagnostics)
        for entity in version.entities {
            checkPropertyNames(entity, into: &diagnostics)
            checkUniqueness(entity, into: &diagnostics)
        }
        checkStorageKeys(into: &diagnostics)
    }

    /// Table names: SQLite ignores case, and `strata_` belongs to Strata.
    private func checkEntityNames(into diagnostics: inout Diagnostics) {
        var byFoldedName: [String: Entity] = [:]
        for entity in version.entities.sorted(by: { $0.location < $1.location }) {
            let folded = entity.name.lowercased()
            if folded.hasPrefix(ReservedNames.prefix) {
                diagnostics.error("entity name '\(entity.name)' is reserved: names beginning with '\(ReservedNames.prefix)' belong to Strata's own tables",
                                  at: entity.location)
            }
            if let first = byFoldedName[folded] {
                diagnostics.error("entity '\(entity.name)' clashes with entity '\(first.name)': SQLite table names ignore case", at: entity.location)
            } else {
                byFoldedName[folded] = entity
            }
        }
    }

    private func checkInheritance(into diagnostics: inout Diagnostics) {
        let names = version.entities.map(\.name)
        for entity in version.entities {
            guard let parent = entity.parent else { continue }
            guard version.entity(named: parent.value) != nil else {
                diagnostics.error("parent '\(parent.value)' of entity '\(entity.name)' is not an entity of version '\(version.name)'"
                                  + Suggestion.hint(for: parent.value, in: names), at: parent.location)
                continue
            }
            var path = [entity.name]
            var current = parent.value
            while let next = version.entity(named: current) {
                if current == entity.name {
                    diagnostics.error("entity '\(entity.name)' inherits from itself: \((path + [current]).joined(separator: " → "))", at: parent.location)
                    break
                }
                guard !path.contains(current), let nextParent = next.parent?.value else { break }
                path.append(current)
                current = nextParent
            }
        }
    }

    /// A property may not be both an attribute and a relationship, nor repeat an inherited name.
    private func checkPropertyNames(_ entity: Entity, into diagnostics: inout Diagnostics) {
        let attributeNames = Set(entity.attributes.map(\.name))
        for relationship in entity.relationships where attributeNames.contains(relationship.name) {
            diagnostics.error("entity '\(entity.name)' declares '\(relationship.name)' both as an attribute and as a relationship", at: relationship.location)
        }
        let ancestors = version.ancestors(of: entity)
        let own = entity.attributes.map { ($0.name, $0.location, "attribute") } + entity.relationships.map { ($0.name, $0.location, "relationship") }
        for (name, location, kind) in own {
            guard let owner = ancestors.first(where: { $0.propertyNames.contains(name) }) else { continue }
            diagnostics.error("\(kind) '\(entity.name).\(name)' clashes with '\(name)' inherited from '\(owner.name)'", at: location)
        }
    }

    /// Uniqueness groups name stored, non-Codable attributes of the entity or its ancestors, once each.
    private func checkUniqueness(_ entity: Entity, into diagnostics: inout Diagnostics) {
        let attributes = ([entity] + version.ancestors(of: entity)).flatMap(\.attributes)
        for group in entity.uniqueness {
            var seen: Set<String> = []
            for member in group {
                guard let attribute = attributes.first(where: { $0.name == member.value }) else {
                    let isRelationship = entity.relationship(named: member.value) != nil
                    let reason = isRelationship ? "a relationship; only attributes can be unique together" : "not an attribute of '\(entity.name)'"
                    diagnostics.error("uniqueness group of entity '\(entity.name)' names '\(member.value)', which is \(reason)"
                                      + (isRelationship ? "" : Suggestion.hint(for: member.value, in: attributes.map(\.name))), at: member.location)
                    continue
                }
                if let kind = attribute.notStoredKind {
                    diagnostics.error("uniqueness group of entity '\(entity.name)' names \(kind) attribute '\(member.value)', which is not stored", at: member.location)
                } else if attribute.type == .codable {
                    diagnostics.error("uniqueness group of entity '\(entity.name)' names Codable attribute '\(member.value)', whose encoded values cannot be compared",
                                      at: member.location)
                }
                if !seen.insert(member.value).inserted {
                    diagnostics.error("uniqueness group of entity '\(entity.name)' names '\(member.value)' twice", at: member.location)
                }
            }
        }
    }

    /// Every column of a table (the root's and all its subentities') must have its own name,
    /// compared without case as SQLite compares them. A property that repeats an inherited name
    /// was already reported by ``checkPropertyNames(_:into:)`` and is left out here.
    private func checkStorageKeys(into diagnostics: inout Diagnostics) {
        struct Column {
            var key: String
            var owner: String
            var location: SourceLocation
        }
        var columnsByTable: [String: [Column]] = [:]
        for entity in version.entities {
            let table = version.root(of: entity).name
            let inherited = Set(version.ancestors(of: entity).flatMap(\.propertyNames))
            let stored = entity.attributes.filter(\.isStored).map { ($0.name, $0.storageKey, $0.location) }
                + entity.relationships.filter { !$0.kind.isToMany && entity.attribute(named: $0.name) == nil }
                .map { ($0.name, $0.storageKey, $0.location) }
            for (name, key, location) in stored where !inherited.contains(name) {
                columnsByTable[table, default: []].append(Column(key: key, owner: "\(entity.name).\(name)", location: location))
            }
        }
        for (table, columns) in columnsByTable {
            var first: [String: Column] = [:]
            for column in columns.sorted(by: { $0.location < $1.location }) {
                let folded = column.key.lowercased()
                if let earlier = first[folded] {
                    diagnostics.error("storage key '\(column.key)' of '\(column.owner)' clashes with '\(earlier.owner)' in table '\(table)' (SQLite column names ignore case)",
                                      at: column.location)
                } else {
                    first[folded] = column
                }
            }
        }
    }
}
