import StrataSchema

/// How an API writes dates, as the app's `JSONEncoder.dateEncodingStrategy` (and decoder's)
/// does; the document describes the one the app uses.
public enum OpenAPIDateFormat: String, CaseIterable, Sendable {
    /// `.iso8601`: text such as `2024-05-01T12:00:00Z`, whole seconds.
    case iso8601
    /// `.secondsSince1970`: a number.
    case secondsSince1970 = "seconds-since-1970"
    /// `.millisecondsSince1970`: a number.
    case millisecondsSince1970 = "milliseconds-since-1970"
    /// `.deferredToDate`, Foundation's default: seconds since 2001-01-01, a number.
    case deferred
}

/// An OpenAPI 3.1 document of components for one version of a model: for each entity, the schema
/// of its snapshot (`Dog`) and of its patch (`DogPatch`, whose `x-strata-create-required` lists
/// the fields creating needs), with the model's `doc:` texts as descriptions. Each schema accepts exactly what the runtime's decoders accept: the types and
/// formats of the attributes, integers' ranges, which fields may be null, which must be given,
/// and no other field.
public struct OpenAPIDocument {
    let model: Model
    let version: SchemaVersion
    let dates: OpenAPIDateFormat

    /// The document of `version` of `model`, with dates as `dates` says.
    public init(model: Model, version: SchemaVersion, dates: OpenAPIDateFormat = .iso8601) {
        self.model = model
        self.version = version
        self.dates = dates
    }

    /// The document as indented JSON; the same model gives the same bytes.
    public var text: String {
        var info: [(String, JSONText)] = [("title", .string(model.manifest.name)), ("version", .string(version.name))]
        if let doc = model.manifest.doc { info.append(("description", .string(doc))) }
        var schemas: [(String, JSONText)] = []
        let names = componentNames
        for entity in version.entities.sorted(by: { $0.name < $1.name }) {
            let (snapshot, patch) = names[entity.name] ?? (entity.name, entity.name + "Patch")
            schemas.append((snapshot, snapshotSchema(entity)))
            schemas.append((patch, patchSchema(entity)))
        }
        return JSONText.object([
            ("openapi", .string("3.1.0")),
            ("info", .object(info)),
            ("components", .object([("schemas", .object(schemas))])),
        ]).text
    }

    /// Each entity's component names: its name and its name with `Patch`, spelled with the
    /// characters component names allow (others as `_uXXXX`); a patch name another entity holds
    /// takes `.Patch` instead.
    var componentNames: [String: (snapshot: String, patch: String)] {
        let taken = Set(version.entities.map { Self.componentName($0.name) })
        return Dictionary(uniqueKeysWithValues: version.entities.map { entity in
            let snapshot = Self.componentName(entity.name)
            let patch = taken.contains(snapshot + "Patch") ? snapshot + ".Patch" : snapshot + "Patch"
            return (entity.name, (snapshot, patch))
        })
    }

    static func componentName(_ name: String) -> String {
        var result = ""
        for scalar in name.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-" {
                result.unicodeScalars.append(scalar)
            } else {
                result += "_u" + String(scalar.value, radix: 16, uppercase: true)
            }
        }
        return result
    }

    /// The entity and its ancestors, root first.
    private func lineage(_ entity: Entity) -> [Entity] {
        Array(version.ancestors(of: entity).reversed()) + [entity]
    }

    private func storedAttributes(_ entity: Entity) -> [Attribute] {
        lineage(entity).flatMap(\.attributes).filter(\.isStored)
    }

    private func snapshotSchema(_ entity: Entity) -> JSONText {
        let attributes = storedAttributes(entity)
        var properties: [(String, JSONText)] = [("objectID", OpenAPITypes.integer(min: "-9223372036854775808", max: "9223372036854775807",
                                                                                   format: "int64", description: "The object's row id."))]
        properties += attributes.map { ($0.name, OpenAPITypes.attribute($0, dates: dates, nullable: $0.isOptional)) }
        properties += lineage(entity).flatMap(\.relationships).map { ($0.name, relationshipSchema($0)) }
        let required = ["objectID"] + attributes.filter { !$0.isOptional }.map(\.name)
        var description = entity.doc.map { $0 + "\n\n" } ?? ""
        description += "A `\(entity.name)` object's stored values (`\(entity.name).Snapshot`). To-many relationships are given only when "
            + "the snapshot is made `includingToMany`."
        return .object([
            ("type", .string("object")), ("description", .string(description)),
            ("properties", .object(properties)), ("required", .array(required.map(JSONText.string))),
            ("additionalProperties", .bool(false)),
        ])
    }

    private func patchSchema(_ entity: Entity) -> JSONText {
        let attributes = storedAttributes(entity)
        let required = attributes.filter { !$0.isOptional && $0.defaultValue == nil && $0.initial == nil }.map(\.name)
        var description = "A create or update body for `\(entity.name)` (`Patch<\(entity.name)>`): each attribute left out (unchanged), "
            + "null (cleared, where it may be nil) or given. "
        description += required.isEmpty ? "Creating needs no field."
            : "Creating needs " + required.map { "`\($0)`" }.joined(separator: ", ") + "."
        // A patch's fields are attributes and to-one relationships, by the same IDs as snapshots.
        let relationships = lineage(entity).flatMap(\.relationships).filter { $0.kind == .toOne }
        return .object([
            ("type", .string("object")), ("description", .string(description)),
            ("properties", .object(attributes.map { ($0.name, OpenAPITypes.attribute($0, dates: dates, nullable: $0.isOptional, withDefault: true)) }
                                   + relationships.map { ($0.name, relationshipSchema($0)) })),
            ("additionalProperties", .bool(false)),
            // What `Patch.create(in:)` requires, for an API to mark its create body with.
            ("x-strata-create-required", .array(required.map(JSONText.string))),
        ])
    }

    /// A relationship as the snapshot gives it: the related objects' unique IDs where the
    /// destination's `import:` block names one that cannot be nil, else their row ids.
    private func relationshipSchema(_ relationship: Relationship) -> JSONText {
        let destination = version.entity(named: relationship.destination)
        let uniqueName = destination.flatMap { lineage($0).compactMap(\.importSpec?.uniqueID?.value).last }
        let unique = destination.flatMap { entity in storedAttributes(entity).first { $0.name == uniqueName && !$0.isOptional } }
        let id = unique.map { OpenAPITypes.attribute($0, dates: dates, nullable: false, documented: false) }
            ?? OpenAPITypes.integer(min: "-9223372036854775808", max: "9223372036854775807", format: "int64", description: nil)
        let named = unique.map { "`\($0.name)`" } ?? "row id"
        var description = relationship.doc.map { $0 + "\n\n" } ?? ""
        if relationship.kind == .toOne {
            description += "The related `\(relationship.destination)`'s \(named); absent or null when there is none."
            return OpenAPITypes.nullable(id, description: description)
        }
        description += "Each related `\(relationship.destination)`'s \(named), "
            + (relationship.kind == .ordered ? "in order" : "by row id") + "; given only when the snapshot is made `includingToMany`."
        return .object([("type", .array([.string("array"), .string("null")])), ("description", .string(description)), ("items", id)])
    }
}
