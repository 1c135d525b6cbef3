/// Checks that every relationship points at an entity and that its inverse points back.
struct RelationshipValidator {
    let version: SchemaVersion
    /// The version's entities by name: a large model has hundreds, each with relationships.
    private let index: EntityIndex

    init(version: SchemaVersion) {
        self.version = version
        index = EntityIndex(version)
    }

    func validate(into diagnostics: inout Diagnostics) {
        let names = version.entities.map(\.name)
        for entity in version.entities {
            for relationship in entity.relationships {
                let context = "relationship '\(entity.name).\(relationship.name)'"
                guard let destination = index.entity(named: relationship.destination) else {
                    diagnostics.error("destination '\(relationship.destination)' of \(context) is not an entity of version '\(version.name)'"
                                      + Suggestion.hint(for: relationship.destination, in: names), at: relationship.destinationLocation)
                    continue
                }
                checkInverse(of: relationship, in: entity, destination: destination, context: context, into: &diagnostics)
            }
        }
    }

    /// The inverse is a relationship of the destination (or an ancestor) whose own inverse is this
    /// relationship and whose destination is this entity (or one of its ancestors).
    private func checkInverse(of relationship: Relationship, in entity: Entity, destination: Entity,
                              context: String, into diagnostics: inout Diagnostics) {
        let candidates = [destination] + SchemaVersion.ancestors(of: destination, lookup: index.entity(named:))
        let inverseName = relationship.inverse
        guard let inverse = candidates.lazy.compactMap({ $0.relationship(named: inverseName) }).first else {
            if candidates.contains(where: { $0.attribute(named: inverseName) != nil }) {
                diagnostics.error("inverse '\(inverseName)' of \(context) is an attribute of '\(destination.name)', not a relationship",
                                  at: relationship.inverseLocation)
            } else {
                let all = candidates.flatMap(\.relationships).map(\.name)
                diagnostics.error("inverse '\(inverseName)' of \(context) is not a relationship of '\(destination.name)'"
                                  + Suggestion.hint(for: inverseName, in: all), at: relationship.inverseLocation)
            }
            return
        }
        let inverseOwner = candidates.first { $0.relationship(named: inverseName) != nil }?.name ?? destination.name
        if inverse.inverse != relationship.name {
            diagnostics.error("inverse of \(context) is '\(inverseOwner).\(inverseName)', whose inverse is '\(inverse.inverse)', not '\(relationship.name)'",
                              at: relationship.inverseLocation)
            return
        }
        let acceptable = Set(([entity] + SchemaVersion.ancestors(of: entity, lookup: index.entity(named:))).map(\.name))
        if !acceptable.contains(inverse.destination), index.entity(named: inverse.destination) != nil {
            diagnostics.error("inverse of \(context) is '\(inverseOwner).\(inverseName)', which points to '\(inverse.destination)', not '\(entity.name)'",
                              at: relationship.inverseLocation)
        }
    }
}
