import StrataSchema

/// The Swift of one field of a generated snapshot: an attribute, or a relationship given by the
/// related objects' IDs. How it is declared, made from an object, read by a `PayloadReader` and
/// written to an encoder.
struct SnapshotFieldCode {
    /// The property's Swift name.
    let name: String
    /// The name in JSON, also the memberwise initializer's label.
    let plainName: String
    /// The property's type.
    let type: String
    /// The expression that gives the field from `object` (and `includingToMany`).
    let value: String
    /// The `PayloadReader` call that decodes it into a local of the property's type made optional.
    let read: String
    /// The local the decoder reads the field into: the name with a prefix, so that no attribute
    /// (one named `self`, say) shadows anything the initializer uses.
    var local: String { "given_" + plainName }
    /// The local as the initializer takes it (force-unwrapped once the reader has finished
    /// without a problem, for a field that must be given).
    let decoded: String
    /// The `KeyedEncodingContainer` call that writes it, after `try container.`.
    let write: String
    /// The doc comment's lines (the model's `doc:`, then what the field holds).
    let docLines: [String]

    /// The field of a stored attribute that `owner` (the entity or one of its parents) declares.
    init(attribute: Attribute, owner: Entity) {
        name = SwiftSyntax.identifier(attribute.name)
        plainName = attribute.name
        let key = SwiftSyntax.stringLiteral(attribute.name)
        let code = AttributeCode(attribute)
        type = code.publicType
        value = "object." + name
        let optional = attribute.isOptional
        if code.isCustomCoded {
            // The stored bytes, through the owning class's own functions: the type need not be Codable.
            let label = SwiftSyntax.argumentLabel(attribute.name)
            let owner = SwiftSyntax.identifier(owner.name)
            read = "reader.\(optional ? "optionalCustom" : "requiredCustom")(\(key), decode: \(owner).decode(\(label):))"
            write = "encode\(optional ? "OptionalCustom" : "Custom")(\(name), \(key), encode: \(owner).encode(\(label):))"
        } else {
            read = "reader.\(optional ? "optional" : "required")(\(key))"
            write = "encode\(optional ? "OptionalValue" : "Value")(\(name), \(key))"
        }
        decoded = optional ? "given_" + attribute.name : "given_" + attribute.name + "!"
        docLines = SwiftSyntax.docLines(attribute.doc) + (attribute.doc == nil ? [] : [""]) + [" `\(attribute.name)`."]
    }

    /// The field of a relationship: the related object's (or, for a to-many relationship, each
    /// member's) unique ID where the destination's `import:` block names one that cannot be nil,
    /// else its row id. A to-many field is nil unless the snapshot was made `includingToMany`.
    init(relationship: Relationship, in version: SchemaVersion) {
        name = SwiftSyntax.identifier(relationship.name)
        plainName = relationship.name
        let destination = version.entity(named: relationship.destination)
        let lineage = destination.map { Array(version.ancestors(of: $0).reversed()) + [$0] } ?? []
        let uniqueID = lineage.compactMap(\.importSpec?.uniqueID?.value).last
        let unique = lineage.flatMap(\.attributes).first { $0.name == uniqueID && !$0.isOptional && $0.isStored }
        let idType = unique.map { AttributeCode($0).publicType } ?? "Int64"
        // A unique ID is read by a closure; a row id by the runtime itself.
        let idOf = unique.map { ", { $0." + SwiftSyntax.identifier($0.name) + " }" } ?? ""
        let described = unique.map { "`\($0.name)`" } ?? "row id"
        let function = unique == nil ? "RowID" : "UniqueID"
        let doc = SwiftSyntax.docLines(relationship.doc) + (relationship.doc == nil ? [] : [""])
        switch relationship.kind {
        case .toOne:
            type = idType + "?"
            value = "SnapshotRelations.\(function.prefix(1).lowercased() + function.dropFirst())(of: object.\(name)\(idOf))"
            docLines = doc + [" `\(relationship.name)`: the related `\(relationship.destination)`'s \(described), nil when there is none."]
        case .ordered:
            type = "[\(idType)]?"
            value = "SnapshotRelations.ordered\(function)s(of: object.\(name), if: includingToMany\(idOf))"
            docLines = doc + [" `\(relationship.name)`: each related `\(relationship.destination)`'s \(described), in order;",
                              " nil unless the snapshot was made `includingToMany`."]
        case .unordered:
            type = "[\(idType)]?"
            value = "SnapshotRelations.\(function.prefix(1).lowercased() + function.dropFirst())s(of: object.\(name), if: includingToMany\(idOf))"
            docLines = doc + [" `\(relationship.name)`: each related `\(relationship.destination)`'s \(described), by row id;",
                              " nil unless the snapshot was made `includingToMany`."]
        }
        let key = SwiftSyntax.stringLiteral(relationship.name)
        read = "reader.optional(\(key))"
        decoded = "given_" + relationship.name
        write = "encodeOptionalValue(\(name), \(key))"
    }

    /// The values a template reads.
    var node: TemplateNode {
        TemplateNode(["name": name, "plainName": plainName, "label": SwiftSyntax.argumentLabel(plainName), "type": type,
                      "localType": type.hasSuffix("?") ? type : type + "?",
                      "value": value, "local": local, "read": read, "decoded": decoded, "write": write, "docLines": docLines])
    }
}
