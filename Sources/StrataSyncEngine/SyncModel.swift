import Strata
import StrataSyncCore

/// The synced part of a model as the engine works with it: per synced entity, which columns and
/// relationships travel and how.
///
/// Each relationship pair travels on one side only, so that no two nodes can disagree about it:
/// a to-one whose inverse is to-many travels as the to-one (the to-many follows from it); of two
/// to-ones, and of two to-manys, the side whose `Entity.relationship` sorts first travels. An
/// ordered to-many whose inverse is to-one travels twice: its members by their to-ones, its order
/// as itself (the order of the members each node has).
struct SyncModel: Sendable {
    /// How one synced entity travels.
    /// A class, though it never changes: an entity is looked up for every object a commit or a
    /// page touches, and a reference is one count to take where a struct's copy is a count for
    /// each of its arrays and strings.
    final class Entity: Sendable {
        /// An attribute that travels.
        struct Attribute: Sendable {
            let name: String
            let ordinal: Int
            let description: AttributeDescription
            var isCounter: Bool { description.merge == .add }
        }

        /// A to-one relationship that travels, as its destination's global ID.
        struct ToOne: Sendable {
            let name: String
            let ordinal: Int
            let index: Int
            let destination: String
        }

        /// A to-many relationship that travels.
        struct ToMany: Sendable {
            enum Kind: Sendable {
                /// Member by member (unordered many-to-many).
                case set
                /// Members in order, the last writer winning (ordered many-to-many).
                case order
                /// Only the order of the members the to-ones give (ordered one-to-many).
                case reorder
            }
            let name: String
            let index: Int
            let destination: String
            let kind: Kind
            let membersSQL: String
        }

        let name: String
        let table: String
        let shape: SyncEntityShape
        let attributes: [Attribute]
        let toOne: [ToOne]
        let toMany: [ToMany]
        /// The attribute the account is kept in, for entities whose objects are per account.
        let owner: String?
        /// Whether objects of exactly this entity can be created (it is not abstract).
        let isConcrete: Bool

        init(name: String, table: String, shape: SyncEntityShape, attributes: [Attribute], toOne: [ToOne], toMany: [ToMany], owner: String?,
             isConcrete: Bool) {
            self.name = name
            self.table = table
            self.shape = shape
            self.attributes = attributes
            self.toOne = toOne
            self.toMany = toMany
            self.owner = owner
            self.isConcrete = isConcrete
        }

        /// Whether it has relationships that travel.
        var relates: Bool { !toOne.isEmpty || !toMany.isEmpty }

        /// The attribute or relationship named `name`, if it travels.
        func travels(_ name: String) -> Bool {
            attributes.contains { $0.name == name } || toOne.contains { $0.name == name } || toMany.contains { $0.name == name }
        }
    }

    /// The synced entities, by name.
    let entities: [String: Entity]
    /// Whether some entity has an ordered one-to-many relationship (whose order is set from
    /// its members' global IDs).
    let reorders: Bool

    init(shapes: [String: SyncEntityShape]) {
        var entities: [String: Entity] = [:]
        for (name, shape) in shapes where shape.description.isSynced {
            var attributes: [Entity.Attribute] = []
            var toOne: [Entity.ToOne] = []
            for (ordinal, column) in shape.columns.enumerated() {
                if let attribute = column.attribute {
                    attributes.append(.init(name: column.property, ordinal: ordinal, description: attribute))
                } else if let relationship = column.relationship, let index = column.relationshipIndex,
                          Self.travels(relationship, shapes: shapes) {
                    toOne.append(.init(name: relationship.name, ordinal: ordinal, index: index, destination: relationship.destination))
                }
            }
            let toMany: [Entity.ToMany] = shape.toMany.compactMap { many in
                let relationship = many.relationship
                guard shapes[relationship.destination]?.description.isSynced == true else { return nil }
                if many.inverseIsToOne {
                    guard relationship.kind == .ordered else { return nil }
                    return .init(name: relationship.name, index: many.index, destination: relationship.destination, kind: .reorder,
                                 membersSQL: many.membersSQL)
                }
                guard Self.travels(relationship, shapes: shapes) else { return nil }
                return .init(name: relationship.name, index: many.index, destination: relationship.destination,
                             kind: relationship.kind == .ordered ? .order : .set, membersSQL: many.membersSQL)
            }
            entities[name] = Entity(name: name, table: shape.table, shape: shape, attributes: attributes, toOne: toOne, toMany: toMany,
                                    owner: shape.description.owner, isConcrete: !shape.description.isAbstract)
        }
        self.entities = entities
        reorders = entities.values.contains { $0.toMany.contains { $0.kind == .reorder } }
    }

    /// Whether a relationship travels on this side of its pair (see the type's comment).
    private static func travels(_ relationship: RelationshipDescription, shapes: [String: SyncEntityShape]) -> Bool {
        guard let destination = shapes[relationship.destination], destination.description.isSynced else { return false }
        let inverse = destination.columns.first { $0.relationship?.name == relationship.inverse }?.relationship
            ?? destination.toMany.first { $0.relationship.name == relationship.inverse }?.relationship
        guard let inverse else { return true }
        if relationship.kind.isToMany != inverse.kind.isToMany { return !relationship.kind.isToMany }
        return "\(inverse.destination).\(relationship.name)" <= "\(relationship.destination).\(inverse.name)"
    }
}
