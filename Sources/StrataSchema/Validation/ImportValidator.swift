/// Checks `import:` blocks: keys name stored properties, and a uniqueID names a unique attribute.
struct ImportValidator {
    let version: SchemaVersion

    func validate(into diagnostics: inout Diagnostics) {
        for entity in version.entities {
            guard let spec = entity.importSpec else { continue }
            let lineage = [entity] + version.ancestors(of: entity)
            let attributes = lineage.flatMap(\.attributes)
            let properties = lineage.flatMap(\.propertyNames)
            for key in spec.keys {
                let name = key.property.value
                if let attribute = attributes.first(where: { $0.name == name }), let kind = attribute.notStoredKind {
                    diagnostics.error("import key '\(name)' of entity '\(entity.name)' names a \(kind) attribute, which is not stored", at: key.property.location)
                } else if let attribute = attributes.first(where: { $0.name == name }), attribute.coder == .custom {
                    diagnostics.error("import key '\(name)' of entity '\(entity.name)' names an attribute the app codes ('coder: custom'), "
                                      + "which no JSON value fills; set it in a hand-written importer instead", at: key.property.location)
                } else if !properties.contains(name) {
                    diagnostics.error("import key '\(name)' of entity '\(entity.name)' is not a property of '\(entity.name)'"
                                      + Suggestion.hint(for: name, in: properties), at: key.property.location)
                } else if let relationship = lineage.flatMap(\.relationships).first(where: { $0.name == name }),
                          let destination = version.entity(named: relationship.destination), destination.importSpec == nil {
                    diagnostics.error("import key '\(name)' of entity '\(entity.name)' names a relationship to '\(destination.name)', "
                                      + "which has no import block to import its objects with", at: key.property.location)
                }
            }
            if let uniqueID = spec.uniqueID {
                checkUniqueID(uniqueID, of: entity, attributes: attributes, into: &diagnostics)
            }
        }
    }

    private func checkUniqueID(_ uniqueID: Located<String>, of entity: Entity, attributes: [Attribute], into diagnostics: inout Diagnostics) {
        guard let attribute = attributes.first(where: { $0.name == uniqueID.value }) else {
            diagnostics.error("import uniqueID '\(uniqueID.value)' of entity '\(entity.name)' is not an attribute of '\(entity.name)'"
                              + Suggestion.hint(for: uniqueID.value, in: attributes.map(\.name)), at: uniqueID.location)
            return
        }
        let uniqueAlone = entity.uniqueness.contains { $0.count == 1 && $0[0].value == attribute.name }
        if !attribute.isStored || attribute.type == .codable || !(attribute.isUnique || uniqueAlone) {
            diagnostics.error("import uniqueID '\(uniqueID.value)' of entity '\(entity.name)' must name an attribute marked 'unique: true'",
                              at: uniqueID.location)
        }
    }
}
