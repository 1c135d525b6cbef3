/// Reads a `migration:` block (or a sequence of them, one per version migrated from).
struct MigrationHintsParser {
    static let keys = ["from", "entities"]
    static let entityKeys = ["renamedFrom", "delete", "transform", "attributes", "relationships"]

    var diagnostics = Diagnostics()

    mutating func parse(_ node: YAMLNode) -> [MigrationHints] {
        let blocks = node.items ?? [node]
        return blocks.compactMap { parseBlock($0) }
    }

    private mutating func parseBlock(_ node: YAMLNode) -> MigrationHints? {
        guard let fields = Fields(node, context: "migration block", allowed: Self.keys, diagnostics: &diagnostics),
              let from = fields.name("from", required: true, what: "version", diagnostics: &diagnostics) else { return nil }
        var hints = MigrationHints(from: from, location: node.location, entities: [])
        for (name, value) in fields.entries("entities", diagnostics: &diagnostics) {
            if let hint = parseEntity(name, value, from: from.value) { hints.entities.append(hint) }
        }
        return hints
    }

    private mutating func parseEntity(_ name: Located<String>, _ node: YAMLNode, from: String) -> EntityHint? {
        let context = "migration hint for entity '\(name.value)'"
        guard let fields = Fields(node, context: context, allowed: Self.entityKeys, diagnostics: &diagnostics) else { return nil }
        var hint = EntityHint(name: name)
        hint.renamedFrom = fields.name("renamedFrom", required: false, what: "entity", diagnostics: &diagnostics)
        hint.isDeleted = fields.bool("delete", diagnostics: &diagnostics)
        if let transform = fields.string("transform", diagnostics: &diagnostics) {
            if transform.value == "custom" {
                hint.isCustom = true
            } else {
                diagnostics.error("'transform' of \(context) must be custom, not '\(transform.value)'"
                                  + Suggestion.hint(for: transform.value, in: ["custom"]), at: transform.location)
            }
        }
        if hint.isDeleted, hint.renamedFrom != nil || hint.isCustom || fields["attributes"] != nil || fields["relationships"] != nil {
            diagnostics.error("\(context) deletes it, so it can have no other hints", at: fields.keyLocation("delete"))
        }
        hint.attributes = properties(fields, key: "attributes", entity: name.value)
        hint.relationships = properties(fields, key: "relationships", entity: name.value)
        return hint
    }

    private mutating func properties(_ fields: Fields, key: String, entity: String) -> [PropertyHint] {
        fields.entries(key, diagnostics: &diagnostics).compactMap { name, value in
            let context = "migration hint for '\(entity).\(name.value)'"
            guard let propertyFields = Fields(value, context: context, allowed: ["renamedFrom"], diagnostics: &diagnostics) else { return nil }
            let renamedFrom = propertyFields.name("renamedFrom", required: true, what: "property", diagnostics: &diagnostics)
            return PropertyHint(name: name, renamedFrom: renamedFrom)
        }
    }
}
