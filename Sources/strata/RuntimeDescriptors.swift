import Foundation
import Strata
import StrataSchema

/// A model version as the runtime describes it, for commands that ask the runtime (`strata sql`):
/// the same descriptors the generated schema history builds, so the SQL printed is the SQL run.
enum RuntimeDescriptors {
    static func modelVersion(_ version: SchemaVersion, in model: Model) -> ModelVersion {
        let entities = version.entities.sorted { $0.name < $1.name }.map { entity in
            let lock = version.versionLock?.entries[entity.name]?.value ?? LockFormat.current.lock(EntityShape(entity, in: version))
            return EntityDescription(
                entity.name,
                abstract: entity.isAbstract,
                parent: entity.parent?.value,
                attributes: entity.attributes.filter(\.isStored).map(attribute),
                relationships: entity.relationships.map { relationship in
                    RelationshipDescription(relationship.name, destination: relationship.destination, inverse: relationship.inverse,
                                            kind: Strata.RelationshipKind(rawValue: relationship.kind.rawValue) ?? .toOne,
                                            deleteRule: Strata.DeleteRule(rawValue: relationship.deleteRule.rawValue) ?? .nullify,
                                            minCount: relationship.minCount, maxCount: relationship.maxCount,
                                            storageKey: relationship.storageKey)
                },
                uniqueness: EntityShape(entity, in: version).uniqueness,
                sync: entity.isSynced,
                owner: entity.owner?.value,
                lock: lock.words
            )
        }
        let names = Set(version.entities.map(\.name))
        let configurations = Dictionary(model.manifest.configurations.map { configuration in
            (configuration.name.value, configuration.entities.map(\.value).filter(names.contains))
        }, uniquingKeysWith: { first, _ in first })
        return ModelVersion(version.name, entities: entities, configurations: configurations, migrations: version.migrations.map(migration))
    }

    private static func attribute(_ attribute: Attribute) -> AttributeDescription {
        AttributeDescription(attribute.name, Strata.AttributeType(rawValue: attribute.type.rawValue) ?? .string,
                             storageKey: attribute.storageKey, optional: attribute.isOptional,
                             required: !attribute.isOptional && attribute.defaultValue == nil && attribute.initial == nil,
                             indexed: attribute.isIndexed, unique: attribute.isUnique,
                             default: attribute.defaultValue.flatMap { storedDefault($0, type: attribute.type) },
                             initial: attribute.initial.flatMap { Strata.InitialValue(rawValue: $0.rawValue) },
                             merge: attribute.merge.flatMap { AttributeMerge(rawValue: $0.rawValue) })
    }

    /// A canonical default as the runtime stores it: the Swift value the generated code builds,
    /// converted by the runtime's own `sqlValue`.
    static func storedDefault(_ canonical: String, type: StrataSchema.AttributeType) -> SQLValue? {
        switch type {
        case .bool: return Bool(canonical)?.sqlValue
        case .int16: return Int16(canonical)?.sqlValue
        case .int32: return Int32(canonical)?.sqlValue
        case .int64: return Int64(canonical)?.sqlValue
        case .int: return Int(canonical)?.sqlValue
        case .double: return Double(canonical)?.sqlValue
        case .float: return Float(canonical)?.sqlValue
        case .decimal: return Decimal(string: canonical, locale: Locale(identifier: "en_US_POSIX"))?.sqlValue
        case .string: return canonical.sqlValue
        case .date: return CanonicalDate.referenceSecondsLiteral(canonical).flatMap(Double.init).map { Date(timeIntervalSinceReferenceDate: $0).sqlValue }
        case .data: return Data(base64Encoded: canonical)?.sqlValue
        case .uuid: return UUID(uuidString: canonical)?.sqlValue
        case .url: return URL(string: canonical)?.sqlValue
        case .codable: return nil
        }
    }

    private static func migration(_ hints: MigrationHints) -> MigrationDescription {
        MigrationDescription(from: hints.from.value, entities: hints.entities.map { hint in
            var renames: [String: String] = [:]
            for property in hint.attributes + hint.relationships {
                if let old = property.renamedFrom { renames[property.name.value] = old.value }
            }
            return EntityMigrationHint(hint.name.value, renamedFrom: hint.renamedFrom?.value, deleted: hint.isDeleted, custom: hint.isCustom,
                                       renamedProperties: renames)
        })
    }
}
