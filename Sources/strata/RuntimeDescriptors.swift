import Strata
import StrataSchema

/// A model version as the runtime describes it, for commands that ask the runtime (`strata sql`).
enum RuntimeDescriptors {
    static func modelVersion(_ version: SchemaVersion) -> ModelVersion {
        let entities = version.entities.sorted { $0.name < $1.name }.map { entity in
            EntityDescription(
                entity.name,
                abstract: entity.isAbstract,
                parent: entity.parent?.value,
                attributes: entity.attributes.filter { !$0.isVirtual }.map { attribute in
                    AttributeDescription(attribute.name, Strata.AttributeType(rawValue: attribute.type.rawValue) ?? .string,
                                         storageKey: attribute.storageKey, optional: attribute.isOptional,
                                         required: !attribute.isOptional && attribute.defaultValue == nil && attribute.initial == nil,
                                         indexed: attribute.isIndexed, unique: attribute.isUnique)
                },
                relationships: entity.relationships.map { relationship in
                    RelationshipDescription(relationship.name, destination: relationship.destination, inverse: relationship.inverse,
                                            kind: Strata.RelationshipKind(rawValue: relationship.kind.rawValue) ?? .toOne,
                                            deleteRule: Strata.DeleteRule(rawValue: relationship.deleteRule.rawValue) ?? .nullify,
                                            minCount: relationship.minCount, maxCount: relationship.maxCount,
                                            storageKey: relationship.storageKey)
                },
                uniqueness: EntityShape(entity, in: version).uniqueness
            )
        }
        return ModelVersion(version.name, entities: entities, versionLock: [:])
    }
}
