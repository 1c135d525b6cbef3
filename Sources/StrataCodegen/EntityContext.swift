import StrataSchema

/// The template values of one entity of the current version: its generated class, ordinals and
/// relationship indexes laid out exactly as the runtime lays out columns (per lineage entity, its
/// stored attributes then its to-one relationships) and relationships (lineage order).
struct EntityContext {
    let entity: Entity
    let version: SchemaVersion
    let access: String

    private var lineage: [Entity] { Array(version.ancestors(of: entity).reversed()) + [entity] }

    /// Lineage ordinal of each stored attribute and to-one relationship, by Swift name.
    private var ordinals: [String: Int] {
        var result: [String: Int] = [:]
        var next = 0
        for member in lineage {
            for attribute in member.attributes where attribute.isStored { result[attribute.name] = next; next += 1 }
            for relationship in member.relationships where relationship.kind == .toOne { result[relationship.name] = next; next += 1 }
        }
        return result
    }

    /// Lineage index of each relationship, by Swift name.
    private var relationshipIndexes: [String: Int] {
        Dictionary(lineage.flatMap(\.relationships).enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    var node: TemplateNode {
        let name = SwiftSyntax.identifier(entity.name)
        let ordinals = self.ordinals
        let indexes = relationshipIndexes
        let stored = entity.attributes.filter(\.isStored)
        let hasChildren = version.entities.contains { $0.parent?.value == entity.name }
        let parts = keyPathParts()
        let attributes: [TemplateNode] = stored.map { attribute in
            let code = AttributeCode(attribute)
            let storage = Self.storage(attribute.name)
            let getter = attribute.type == .codable && !attribute.isOptional ? "requiredValue(\(storage), \(SwiftSyntax.stringLiteral(attribute.name)))" : storage
            return TemplateNode([
                "name": SwiftSyntax.identifier(attribute.name), "plainName": attribute.name, "storage": storage,
                "storageType": code.storageType, "publicType": code.publicType, "initial": code.initialValue,
                "ordinal": ordinals[attribute.name] ?? 0, "nameLiteral": SwiftSyntax.stringLiteral(attribute.name),
                "getter": getter, "summary": summary(attribute), "docLines": SwiftSyntax.docLines(attribute.doc),
            ])
        }
        let toOnes: [TemplateNode] = entity.relationships.filter { $0.kind == .toOne }.map { relationship in
            TemplateNode([
                "name": SwiftSyntax.identifier(relationship.name), "plainName": relationship.name, "storage": Self.storage(relationship.name),
                "destination": SwiftSyntax.identifier(relationship.destination), "destinationName": relationship.destination,
                "ordinal": ordinals[relationship.name] ?? 0, "index": indexes[relationship.name] ?? 0,
                "nameLiteral": SwiftSyntax.stringLiteral(relationship.name), "docLines": SwiftSyntax.docLines(relationship.doc),
            ])
        }
        let toManys: [TemplateNode] = entity.relationships.filter { $0.kind != .toOne }.map { relationship in
            let destination = SwiftSyntax.identifier(relationship.destination)
            let index = indexes[relationship.name] ?? 0
            let ordered = relationship.kind == .ordered
            return TemplateNode([
                "name": SwiftSyntax.identifier(relationship.name), "plainName": relationship.name, "index": index,
                "publicType": ordered ? "[\(destination)]" : "Set<\(destination)>",
                "getter": ordered ? "toMany(\(index), as: \(destination).self)" : "Set(toMany(\(index), as: \(destination).self))",
                "nameLiteral": SwiftSyntax.stringLiteral(relationship.name),
                "summary": (ordered ? "ordered to-many " : "to-many ") + relationship.destination,
                "docLines": SwiftSyntax.docLines(relationship.doc),
            ])
        }
        // Transient attributes are reported by their index among the lineage's.
        let inheritedTransients = lineage.dropLast().flatMap(\.attributes).filter(\.isTransient).count
        let transients: [TemplateNode] = entity.attributes.filter(\.isTransient).enumerated().map { position, attribute in
            let code = AttributeCode(attribute)
            return TemplateNode([
                "name": SwiftSyntax.identifier(attribute.name), "plainName": attribute.name, "storage": Self.storage(attribute.name),
                "storageType": code.storageType, "publicType": code.publicType, "initial": code.initialValue,
                "summary": summary(attribute), "docLines": SwiftSyntax.docLines(attribute.doc),
                "index": inheritedTransients + position,
            ])
        }
        var reads = stored.map { AttributeCode($0).read }
        // Reading the stored values anew starts the transient ones over.
        reads += entity.attributes.filter(\.isTransient).map { Self.storage($0.name) + " = " + AttributeCode($0).initialValue }
        reads += entity.relationships.filter { $0.kind == .toOne }.map { Self.storage($0.name) + " = reader.optionalInt64()" }
        var binds = stored.map { AttributeCode($0).bind }
        binds += entity.relationships.filter { $0.kind == .toOne }.map { "binder.bind(value: \(Self.storage($0.name)))" }
        let initialValues = stored.compactMap { attribute -> String? in
            switch attribute.initial {
            case .now?: return Self.storage(attribute.name) + " = Date()"
            case .uuid?: return Self.storage(attribute.name) + " = UUID()"
            case nil: return nil
            }
        }
        // In the runtime's order: stored attributes, to-one relationships' keys, transient attributes.
        let value = { (attribute: Attribute) in
            let code = AttributeCode(attribute)
            return (name: attribute.name, type: code.storageType, initial: code.initialValue)
        }
        let storedValues = Self.storedValuesTuple(stored.map(value)
            + entity.relationships.filter { $0.kind == .toOne }.map { ($0.name, "Int64?", "nil") }
            + entity.attributes.filter(\.isTransient).map(value))
        let virtuals: [TemplateNode] = entity.attributes.filter(\.isVirtual).map { attribute in
            TemplateNode(["name": SwiftSyntax.identifier(attribute.name), "type": AttributeCode(attribute).publicType])
        }
        let customCoders: [TemplateNode] = stored.filter { AttributeCode($0).isCustomCoded }.map { attribute in
            TemplateNode(["label": SwiftSyntax.argumentLabel(attribute.name), "plainName": attribute.name,
                          "nameLiteral": SwiftSyntax.stringLiteral(attribute.name),
                          "type": attribute.swiftType ?? "Never"])
        }
        let requiredCodables: [TemplateNode] = stored.filter { $0.type == .codable && !$0.isOptional }.map { attribute in
            TemplateNode(["name": SwiftSyntax.identifier(attribute.name), "nameLiteral": SwiftSyntax.stringLiteral(attribute.name),
                          "type": attribute.swiftType ?? "Never"])
        }
        let fields = lineage.flatMap { owner in owner.attributes.filter(\.isStored).map { (owner: owner, attribute: $0) } }
        let snapshotFields = fields.map { SnapshotFieldCode(attribute: $0.attribute, owner: $0.owner) }
            + lineage.flatMap(\.relationships).map { SnapshotFieldCode(relationship: $0, in: version) }
        // The key paths the accessors report to Observation, in the runtime's order: stored
        // attributes then to-one relationships (column ordinals), every relationship (lineage
        // indexes), transient attributes. Each list is built in short runs (see `chunks`).
        let root = "\\" + name + "."
        let columnPaths = (stored.map(\.name) + entity.relationships.filter { $0.kind == .toOne }.map(\.name)).map { root + SwiftSyntax.identifier($0) }
        let relationshipPaths = entity.relationships.map { root + SwiftSyntax.identifier($0.name) }
        let transientPaths = entity.attributes.filter(\.isTransient).map { root + SwiftSyntax.identifier($0.name) }
        let observedRuns = [("addColumns", columnPaths), ("addRelationships", relationshipPaths), ("addTransients", transientPaths)]
            .flatMap { method, paths in Self.chunks(paths, size: 32).map { TemplateNode(["method": method, "keyPaths": $0]) } }
        return TemplateNode([
            "name": name, "plainName": entity.name, "observedRuns": observedRuns, "nameLiteral": SwiftSyntax.stringLiteral(entity.name),
            "docLines": SwiftSyntax.docLines(entity.doc),
            "classKeyword": hasChildren ? "class" : "final class", "isRoot": entity.parent == nil,
            "superclass": entity.parent.map { SwiftSyntax.identifier($0.value) } ?? "StrataObject",
            "attributes": attributes, "toOnes": toOnes, "toManys": toManys, "reads": reads, "binds": binds,
            "hasStoredValues": !storedValues.members.isEmpty, "storedValueMembers": storedValues.members,
            "storedValueInitials": storedValues.initials,
            "hasProperties": !(attributes.isEmpty && toOnes.isEmpty && toManys.isEmpty && transients.isEmpty),
            "initialValues": initialValues, "virtuals": virtuals, "customCoders": customCoders, "requiredCodables": requiredCodables, "transients": transients, "snapshotFields": snapshotFields.map(\.node), "keyPathChunks": Self.chunks(keyPathEntries(), size: 32),
            "attributesThroughOptional": Self.chunks(parts.attributes, size: 32), "toOneParts": parts.toOnes,
            "snapshotArguments": (["objectID: object.objectID(as: \(name).self)"]
                                  + snapshotFields.map { SwiftSyntax.argumentLabel($0.plainName) + ": " + $0.value }).joined(separator: ", "),
            "snapshotFieldNames": (["objectID"] + snapshotFields.map(\.plainName)).map(SwiftSyntax.stringLiteral).joined(separator: ", "),
            "snapshotDecodedArguments": (["objectID: given_objectID!"]
                                         + snapshotFields.map { SwiftSyntax.argumentLabel($0.plainName) + ": " + $0.decoded }).joined(separator: ", "),
        ])
    }

    /// The key paths of this class a clause may use, as `\Dog.name: "name"` dictionary entries:
    /// lineage attributes and relationships (for `prefetch`) and the count of each to-many
    /// relationship (`\Person.pets.count`). Paths through to-one relationships
    /// (`\Dog.master?.name`) are named by the runtime from ``keyPathParts()``, so that a class
    /// names no other class's properties.
    private func keyPathEntries() -> [String] {
        let root = "\\" + SwiftSyntax.identifier(entity.name) + "."
        var result: [String] = []
        for attribute in lineage.flatMap(\.attributes) where attribute.isStored {
            result.append(root + SwiftSyntax.identifier(attribute.name) + ": " + SwiftSyntax.stringLiteral(attribute.name))
        }
        for relationship in lineage.flatMap(\.relationships) {
            result.append(root + SwiftSyntax.identifier(relationship.name) + ": " + SwiftSyntax.stringLiteral(relationship.name))
        }
        for relationship in lineage.flatMap(\.relationships) where relationship.kind != .toOne {
            result.append(root + SwiftSyntax.identifier(relationship.name) + ".count: " + SwiftSyntax.stringLiteral(relationship.name + ".@count"))
        }
        return result
    }

    /// What the runtime joins into paths through to-one relationships: the lineage's stored
    /// attributes reached through an optional of this class (`\Person?.?.name: "name"`), and one
    /// `addToOne` argument list per lineage to-one relationship (its destination class is read
    /// from the path's type at run time: naming it here would make a change to that class
    /// recompile this one's file).
    private func keyPathParts() -> (attributes: [String], toOnes: [String]) {
        let name = SwiftSyntax.identifier(entity.name)
        let attributes = lineage.flatMap(\.attributes).filter(\.isStored).map { attribute in
            "\\" + name + "?.?." + SwiftSyntax.identifier(attribute.name) + ": " + SwiftSyntax.stringLiteral(attribute.name)
        }
        let toOnes = lineage.flatMap(\.relationships).filter { $0.kind == .toOne }.map { relationship in
            let property = SwiftSyntax.identifier(relationship.name)
            return "\\" + name + "." + property + ", \\" + name + "?.?." + property + ", " + SwiftSyntax.stringLiteral(relationship.name)
        }
        return (attributes, toOnes)
    }

    /// Where the generated class keeps a property's value: a member of its `StoredValues`, which an
    /// extension declares, so the class's own declaration does not change with its attributes.
    static func storage(_ property: String) -> String {
        "storedValues." + SwiftSyntax.identifier(property)
    }

    /// The lines of the tuple type that holds a class's stored values (`name: Type,` each) and of
    /// a new object's tuple (`initial,` each), in the same order. A tuple, not a struct: the build's
    /// interface step synthesises three accessors for each member of a struct, which for 200 × 10
    /// cost it 0.2 s. A tuple needs two elements, so a lone value gets a `Void` beside it.
    static func storedValuesTuple(_ values: [(name: String, type: String, initial: String)]) -> (members: [String], initials: [String]) {
        guard !values.isEmpty else { return ([], []) }
        var members = values.map { SwiftSyntax.identifier($0.name) + ": " + $0.type }
        var initials = values.map(\.initial)
        if values.count == 1 {
            members.append("Void")
            initials.append("()")
        }
        func commas(_ lines: [String]) -> [String] { lines.enumerated().map { $1 + ($0 == lines.count - 1 ? "" : ",") } }
        return (commas(members), commas(initials))
    }

    /// `elements` in runs of at most `size`, each short enough to type-check quickly. (The
    /// template adds the key-path runs in a function, not in a closure that initializes the
    /// table: a build's module-interface step skips function bodies.)
    static func chunks<T>(_ elements: [T], size: Int) -> [[T]] {
        stride(from: 0, to: elements.count, by: size).map { Array(elements[$0..<min($0 + size, elements.count)]) }
    }

    private func summary(_ attribute: Attribute) -> String {
        var parts = [attribute.type == .codable ? (attribute.swiftType ?? "Codable") : attribute.type.rawValue]
        if attribute.coder == .custom { parts.append("coded by the app") }
        if attribute.isOptional { parts.append("optional") }
        if attribute.isIndexed { parts.append("indexed") }
        if attribute.isUnique { parts.append("unique") }
        if let initial = attribute.initial { parts.append("initially \(initial.rawValue)") }
        if attribute.isTransient { parts.append("transient: kept in memory with the object, never saved, reset when it is read from the store") }
        return parts.joined(separator: ", ")
    }
}
