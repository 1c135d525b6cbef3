/// Reads a version file's tree into a ``SchemaVersion``, reporting every problem of shape and
/// spelling. Checks that need the whole model (names that refer elsewhere) belong to the validators.
struct VersionParser {
    static let keys = ["version", "sync", "entities", "migration", "versionLock"]
    static let entityKeys = ["abstract", "parent", "sync", "owner", "attributes", "relationships", "uniqueness", "import", "hashModifier", "doc"]

    var diagnostics = Diagnostics()

    mutating func parse(_ root: YAMLNode, file: String) -> SchemaVersion? {
        guard let fields = Fields(root, context: "version file", allowed: Self.keys, diagnostics: &diagnostics),
              let name = fields.name("version", required: true, what: "version", diagnostics: &diagnostics) else { return nil }
        var version = SchemaVersion(name: name.value, file: file, location: name.location)
        version.sync = fields.locatedBool("sync", diagnostics: &diagnostics)
        if fields["entities"] == nil {
            diagnostics.error("version file is missing 'entities'", at: root.location)
        }
        for (entityName, node) in fields.entries("entities", diagnostics: &diagnostics) {
            if let entity = parseEntity(entityName, node) { version.entities.append(entity) }
        }
        if let migration = fields["migration"], !migration.isNull {
            var parser = MigrationHintsParser()
            version.migrations = parser.parse(migration)
            diagnostics.append(contentsOf: parser.diagnostics.all)
        }
        if let lock = fields["versionLock"] {
            version.versionLock = parseLock(lock, at: fields.keyLocation("versionLock"))
        }
        version.resolveSync()
        return version
    }

    private mutating func parseEntity(_ name: Located<String>, _ node: YAMLNode) -> Entity? {
        guard checkName(name, what: "entity") else { return nil }
        let context = "entity '\(name.value)'"
        guard let fields = Fields(node.isNull ? YAMLNode(location: node.location, kind: .mapping([])) : node,
                                  context: context, allowed: Self.entityKeys, diagnostics: &diagnostics) else { return nil }
        var entity = Entity(name: name.value, location: name.location)
        entity.isAbstract = fields.bool("abstract", diagnostics: &diagnostics)
        entity.parent = fields.name("parent", required: false, what: "entity", diagnostics: &diagnostics)
        entity.doc = fields.string("doc", diagnostics: &diagnostics)?.value
        entity.hashModifier = fields.hashModifier(diagnostics: &diagnostics)
        entity.sync = fields.locatedBool("sync", diagnostics: &diagnostics)
        entity.owner = fields.name("owner", required: false, what: "attribute", diagnostics: &diagnostics)
        var properties = PropertyParser(entity: name.value)
        for (attributeName, value) in fields.entries("attributes", diagnostics: &diagnostics) {
            guard checkName(attributeName, what: "attribute") else { continue }
            if let attribute = properties.attribute(attributeName, value) { entity.attributes.append(attribute) }
        }
        for (relationshipName, value) in fields.entries("relationships", diagnostics: &diagnostics) {
            guard checkName(relationshipName, what: "relationship") else { continue }
            if let relationship = properties.relationship(relationshipName, value) { entity.relationships.append(relationship) }
        }
        diagnostics.append(contentsOf: properties.diagnostics.all)
        entity.uniqueness = parseUniqueness(fields, context: context)
        if let importNode = fields["import"] {
            entity.importSpec = parseImport(importNode, entity: name.value)
        }
        return entity
    }

    private mutating func checkName(_ name: Located<String>, what: String) -> Bool {
        guard Identifier.isValid(name.value) else {
            diagnostics.error("'\(name.value)' is not a valid \(what) name; \(Identifier.rule)", at: name.location)
            return false
        }
        if what == "entity", ReservedNames.typeNames.contains(name.value) {
            diagnostics.error("'\(name.value)' cannot name an entity: generated code uses that type name", at: name.location)
            return false
        }
        if what != "entity", ReservedNames.propertyNames.contains(name.value) {
            diagnostics.error("'\(name.value)' cannot name \(what == "attribute" ? "an" : "a") \(what): every entity class already has a member of that name",
                              at: name.location)
            return false
        }
        return true
    }

    private mutating func parseUniqueness(_ fields: Fields, context: String) -> [[Located<String>]] {
        guard let groups = fields.items("uniqueness", diagnostics: &diagnostics) else { return [] }
        return groups.compactMap { group in
            guard let members = group.items else {
                diagnostics.error("each 'uniqueness' group of \(context) must be a sequence of attribute names, not \(group.kindDescription)",
                                  at: group.location)
                return nil
            }
            guard !members.isEmpty else {
                diagnostics.error("a 'uniqueness' group of \(context) is empty", at: group.location)
                return nil
            }
            return members.compactMap { member in
                guard let text = member.scalarText, !member.isNull else {
                    diagnostics.error("'uniqueness' of \(context) lists \(member.kindDescription) where an attribute name belongs", at: member.location)
                    return nil
                }
                return Located(text, at: member.location)
            }
        }
    }

    private mutating func parseImport(_ node: YAMLNode, entity: String) -> ImportSpec? {
        let context = "import block of entity '\(entity)'"
        guard let fields = Fields(node, context: context, allowed: ["uniqueID", "keys"], diagnostics: &diagnostics) else { return nil }
        var spec = ImportSpec(uniqueID: fields.string("uniqueID", diagnostics: &diagnostics), keys: [])
        for (property, value) in fields.entries("keys", diagnostics: &diagnostics) {
            guard let keyPath = value.scalarText, !value.isNull, !keyPath.isEmpty else {
                diagnostics.error("import key of '\(entity).\(property.value)' must be a JSON key path, not \(value.kindDescription)", at: value.location)
                continue
            }
            spec.keys.append(ImportKey(property: property, keyPath: keyPath))
        }
        return spec
    }

    private mutating func parseLock(_ node: YAMLNode, at location: SourceLocation) -> VersionLock? {
        if node.isNull { return VersionLock(entries: [:], location: location) }
        guard let entries = node.entries else {
            diagnostics.error("'versionLock' must be a mapping of entity names to four hex numbers, not \(node.kindDescription)", at: node.location)
            return nil
        }
        var lock = VersionLock(entries: [:], location: location)
        for entry in entries {
            guard let name = entry.key.scalarText else { continue }
            let words = entry.value.items?.compactMap { item -> UInt64? in
                guard let text = item.scalarText, text.hasPrefix("0x"), text.count <= 18 else { return nil }
                return UInt64(text.dropFirst(2), radix: 16)
            }
            guard let words, words.count == 4, entry.value.items?.count == 4 else {
                diagnostics.error("lock of entity '\(name)' must be four hex numbers such as [0x1b59d511019695cf, 0xdeb97e86c5eff179, 0x01cfd80745646cb3, 0x4ff99416175b5b9a]",
                                  at: entry.value.location)
                continue
            }
            lock.entries[name] = Located(LockHash(words: words), at: entry.key.location)
        }
        return lock
    }
}
