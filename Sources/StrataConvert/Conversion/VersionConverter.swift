import StrataSchema
/// One Core Data model version as a Strata version file, and a warning for everything that does
/// not carry over as it was.
struct VersionConverter {
    let model: CoreDataModel
    let versionName: String
    /// The version before this one in the chain, for renaming identifiers.
    let previous: (name: String, model: CoreDataModel)?
    private(set) var warnings: [ConversionDiagnostic] = []
    /// Inverses added for relationships that have none: destination entity → relationships.
    private var addedInverses: [String: [(name: String, destination: String, inverse: String)]] = [:]
    /// The inverse of each relationship that had none: "Entity.relationship" → added inverse.
    private var inverseOf: [String: String] = [:]

    /// Entities that get an import block from their own user info (`relatedByAttribute`, or an
    /// attribute's `mappedKeyName`): only these can be imported through a relationship.
    private let importable: Set<String>

    init(model: CoreDataModel, versionName: String, previous: (name: String, model: CoreDataModel)?) {
        self.model = model
        self.versionName = versionName
        self.previous = previous
        importable = Set(model.entities.filter { entity in
            entity.userInfo.contains { $0.key == "relatedByAttribute" } || entity.attributes.contains { $0.userInfo.contains { $0.key == "mappedKeyName" } }
        }.map(\.name))
    }

    mutating func warn(_ message: String, at position: SourceLocation?) {
        warnings.append(ConversionDiagnostic(.warning, message, at: position))
    }

    /// The relationships Strata keeps: Core Data's transient ones are not stored.
    func storedRelationships(of entity: CoreDataEntity) -> [CoreDataRelationship] {
        entity.relationships.filter { !$0.isTransient }
    }

    /// The version file's text.
    mutating func yaml(source: String) -> String {
        addMissingInverses()
        var lines = ["# Converted by strata convert from \(source.replacingOccurrences(of: "\n", with: " ")).",
                     "version: \(YAMLText.scalar(versionName))", "entities:"]
        for entity in model.entities {
            lines += entityLines(entity)
        }
        for request in model.fetchRequests {
            warn("fetch request '\(request.name)' of '\(request.entity)' is not carried over: write it as a fetch in code", at: request.position)
        }
        if let previous {
            var hints = RenameHints(current: model, previous: previous.model)
            let migration = hints.lines(from: previous.name)
            warnings += hints.warnings
            lines += migration
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Gives every stored relationship without an inverse one on its destination: a to-many named
    /// after the source (`Person.car` gets `Car.personCar`), since several sources may point at one object.
    private mutating func addMissingInverses() {
        for entity in model.entities {
            for relationship in storedRelationships(of: entity) where storedInverse(of: relationship, from: entity.name) == nil {
                guard let destination = model.entity(relationship.destination) else { continue }
                var taken = Set(destination.attributes.map(\.name) + destination.relationships.map(\.name))
                taken.formUnion((addedInverses[destination.name] ?? []).map(\.name))
                // Named after the renaming identifiers, so a renamed source keeps the same inverse.
                let base = lowerFirst(entity.renamingIdentifier ?? entity.name) + upperFirst(relationship.renamingIdentifier ?? relationship.name)
                var name = base
                var number = 2
                while taken.contains(name) {
                    name = base + String(number)
                    number += 1
                }
                addedInverses[destination.name, default: []].append((name, entity.name, relationship.name))
                inverseOf[entity.name + "." + relationship.name] = name
                warn("'\(entity.name).\(relationship.name)' has no inverse; Strata keeps both sides, so '\(destination.name).\(name)' "
                     + "(to-many, from '\(entity.name)') is added as its inverse", at: relationship.position)
            }
        }
    }

    /// The stored relationship on the destination that points back: the one named by
    /// `inverseName`, or one that names this relationship as its inverse when only that side says so.
    private func storedInverse(of relationship: CoreDataRelationship, from source: String) -> String? {
        guard let destination = model.entity(relationship.destination) else { return nil }
        let candidates = storedRelationships(of: destination)
        if let inverse = relationship.inverse {
            return candidates.contains { $0.name == inverse } ? inverse : nil
        }
        return candidates.first { $0.inverse == relationship.name && $0.destination == source }?.name
    }

    private mutating func entityLines(_ entity: CoreDataEntity) -> [String] {
        var lines = ["  \(YAMLText.scalar(entity.name)):"]
        if entity.isAbstract { lines.append("    abstract: true") }
        if let parent = entity.parent { lines.append("    parent: \(YAMLText.scalar(parent))") }
        if let modifier = entity.versionHashModifier { lines.append("    hashModifier: \(YAMLText.scalar(modifier))") }
        if let className = entity.className, className != entity.name, className != "NSManagedObject" {
            warn("class '\(className)' of entity '\(entity.name)' becomes '\(entity.name)': generated classes take their entity's name",
                 at: entity.position)
        }
        for property in entity.fetchedProperties {
            warn("fetched property '\(entity.name).\(property.name)' is not carried over: fetch it in code", at: property.position)
        }
        var keys = Keys(entity: entity)
        let attributeLines = attributes(entity, keys: &keys)
        if !attributeLines.isEmpty { lines += ["    attributes:"] + attributeLines }
        let relationshipLines = relationships(entity, keys: &keys)
        if !relationshipLines.isEmpty { lines += ["    relationships:"] + relationshipLines }
        if !keys.groups.isEmpty {
            lines.append("    uniqueness: [" + keys.groups.map(YAMLText.list).joined(separator: ", ") + "]")
        }
        lines += importLines(entity, keys: keys)
        return lines
    }

    /// What the entity's constraints, indexes and user info say about its attributes.
    struct Keys {
        var unique: Set<String> = []
        var indexed: Set<String> = []
        var groups: [[String]] = []
        var uniqueID: String?
        var importKeys: [(String, String)] = []

        init(entity: CoreDataEntity) {
            indexed = Set(entity.attributes.filter(\.isIndexed).map(\.name))
        }
    }

    private mutating func attributes(_ entity: CoreDataEntity, keys: inout Keys) -> [String] {
        let names = Set(entity.attributes.map(\.name))
        let transient = Set(entity.attributes.filter(\.isTransient).map(\.name))
        for constraint in entity.uniquenessConstraints {
            if let other = constraint.first(where: { !names.contains($0) }) {
                warn("uniqueness constraint (\(constraint.joined(separator: ", "))) of '\(entity.name)' is not carried over: "
                     + "'\(other)' is not an attribute of '\(entity.name)'", at: entity.position)
            } else if let other = constraint.first(where: transient.contains), constraint.count > 1 {
                warn("uniqueness constraint (\(constraint.joined(separator: ", "))) of '\(entity.name)' is not carried over: "
                     + "'\(other)' is transient, which is not stored", at: entity.position)
            } else if constraint.count == 1 {
                keys.unique.insert(constraint[0])
            } else if !constraint.isEmpty {
                keys.groups.append(constraint)
            }
        }
        for index in entity.indexes {
            if index.properties.count == 1, names.contains(index.properties[0]) {
                keys.indexed.insert(index.properties[0])
            } else {
                warn("index '\(index.name)' (\(index.properties.joined(separator: ", "))) of '\(entity.name)' is not carried over: "
                     + "Strata indexes single attributes ('indexed: true')", at: entity.position)
            }
        }
        for entry in entity.userInfo {
            if entry.key == "relatedByAttribute", names.contains(entry.value), !transient.contains(entry.value) {
                keys.uniqueID = entry.value
                if !keys.unique.contains(entry.value) {
                    keys.unique.insert(entry.value)
                    warn("'\(entity.name).\(entry.value)' is made unique: user info relatedByAttribute names it as the import ID",
                         at: entity.position)
                }
            } else {
                warn("user info '\(entry.key)' of '\(entity.name)' is not carried over", at: entity.position)
            }
        }
        return entity.attributes.compactMap { attribute(entity, $0, keys: &keys) }
    }

    private mutating func attribute(_ entity: CoreDataEntity, _ attribute: CoreDataAttribute, keys: inout Keys) -> String? {
        let path = "'\(entity.name).\(attribute.name)'"
        guard let type = AttributeMapping.type(of: attribute.type) else {
            warn("\(path) is not carried over: Core Data's '\(attribute.type)' attributes have no counterpart", at: attribute.position)
            return nil
        }
        var fields: [(String, String)] = [("type", type)]
        if attribute.type == "Transformable" {
            let details = [attribute.customClassName.map { "class '\($0)'" }, attribute.valueTransformerName.map { "transformer '\($0)'" }]
                .compactMap { $0 }.joined(separator: ", ")
            warn("\(path) is transformable\(details.isEmpty ? "" : " (\(details))"), which has no counterpart: it becomes Data, "
                 + "the bytes the transformer wrote; decode them in the app, or declare a Codable attribute with its swiftType",
                 at: attribute.position)
        }
        if attribute.isOptional { fields.append(("optional", "true")) }
        if let raw = attribute.defaultValue {
            switch AttributeMapping.defaultValue(raw, type: type) {
            case .success(let value): fields.append(("default", value))
            case .failure: warn("default \(YAMLText.quoted(raw)) of \(path) is not a valid \(type); left out", at: attribute.position)
            }
        }
        if attribute.isTransient {
            // Core Data's transient attributes are storage each object keeps in memory: Strata's too.
            fields.append(("transient", "true"))
            if keys.indexed.contains(attribute.name) || keys.unique.contains(attribute.name) {
                warn("\(path) is transient, so its index and uniqueness are left out: only stored attributes have them", at: attribute.position)
            }
            if let modifier = attribute.versionHashModifier {
                warn("versionHashModifier \(YAMLText.quoted(modifier)) of \(path) is not carried over: a transient attribute is not part of "
                     + "the version lock", at: attribute.position)
            }
        } else {
            if keys.indexed.contains(attribute.name) { fields.append(("indexed", "true")) }
            if keys.unique.contains(attribute.name) { fields.append(("unique", "true")) }
            if let modifier = attribute.versionHashModifier { fields.append(("hashModifier", YAMLText.scalar(modifier))) }
        }
        if let derivation = attribute.derivation {
            warn("\(path) is derived (\(derivation)) in Core Data; it becomes a stored attribute the app sets", at: attribute.position)
        }
        for rule in attribute.validation {
            warn("validation \(rule) of \(path) is not carried over: check it in the app", at: attribute.position)
        }
        for entry in attribute.userInfo {
            if entry.key == "mappedKeyName", attribute.isTransient {
                warn("user info mappedKeyName of \(path) is not carried over: a transient attribute is not imported", at: attribute.position)
            } else if entry.key == "mappedKeyName" {
                keys.importKeys.append((attribute.name, entry.value))
            } else {
                warn("user info '\(entry.key)' of \(path) is not carried over", at: attribute.position)
            }
        }
        return "      \(YAMLText.scalar(attribute.name)): " + YAMLText.flow(fields)
    }

    private mutating func relationships(_ entity: CoreDataEntity, keys: inout Keys) -> [String] {
        var lines: [String] = []
        for relationship in entity.relationships {
            let path = "'\(entity.name).\(relationship.name)'"
            if relationship.isTransient {
                warn("\(path) is transient, which Strata does not store; left out", at: relationship.position)
                continue
            }
            let inverse = storedInverse(of: relationship, from: entity.name) ?? inverseOf[entity.name + "." + relationship.name] ?? ""
            var fields: [(String, String)] = [("destination", YAMLText.scalar(relationship.destination)), ("inverse", YAMLText.scalar(inverse))]
            if relationship.isToMany {
                fields.append(("toMany", relationship.isOrdered ? "ordered" : "unordered"))
            } else if !relationship.isOptional {
                warn("\(path) is a required to-one; Strata's to-one relationships may be nil, so the app must ensure it is set",
                     at: relationship.position)
            }
            switch relationship.deleteRule {
            case "Nullify": break
            case "Cascade": fields.append(("deleteRule", "cascade"))
            case "Deny": fields.append(("deleteRule", "deny"))
            default:
                warn("\(path) deletes with '\(relationship.deleteRule)'; Strata keeps both sides of a relationship, so it nullifies",
                     at: relationship.position)
            }
            if relationship.isToMany {
                if relationship.minCount > 0 { fields.append(("min", String(relationship.minCount))) }
                if relationship.maxCount > 0 { fields.append(("max", String(relationship.maxCount))) }
            }
            if let modifier = relationship.versionHashModifier { fields.append(("hashModifier", YAMLText.scalar(modifier))) }
            for entry in relationship.userInfo {
                if entry.key == "mappedKeyName", importable.contains(relationship.destination) {
                    keys.importKeys.append((relationship.name, entry.value))
                } else if entry.key == "mappedKeyName" {
                    warn("user info mappedKeyName of \(path) is not carried over: '\(relationship.destination)' has no import "
                         + "information (relatedByAttribute or mappedKeyName) to import its objects with", at: relationship.position)
                } else {
                    warn("user info '\(entry.key)' of \(path) is not carried over", at: relationship.position)
                }
            }
            lines.append("      \(YAMLText.scalar(relationship.name)): " + YAMLText.flow(fields))
        }
        for added in addedInverses[entity.name] ?? [] {
            lines.append("      \(YAMLText.scalar(added.name)): " + YAMLText.flow([
                ("destination", YAMLText.scalar(added.destination)), ("inverse", YAMLText.scalar(added.inverse)), ("toMany", "unordered"),
            ]))
        }
        return lines
    }

    private func importLines(_ entity: CoreDataEntity, keys: Keys) -> [String] {
        guard keys.uniqueID != nil || !keys.importKeys.isEmpty else { return [] }
        var lines = ["    import:"]
        if let uniqueID = keys.uniqueID { lines.append("      uniqueID: \(YAMLText.scalar(uniqueID))") }
        if !keys.importKeys.isEmpty {
            lines.append("      keys: " + YAMLText.flow(keys.importKeys.map { (YAMLText.scalar($0.0), YAMLText.quoted($0.1)) }))
        }
        return lines
    }
}

func lowerFirst(_ text: String) -> String { text.prefix(1).lowercased() + text.dropFirst() }
func upperFirst(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
