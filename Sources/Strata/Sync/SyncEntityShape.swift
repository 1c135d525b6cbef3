/// How one entity is stored, as the sync engine needs it: its columns in the order a
/// ``HookedChange`` lists their values, and where each to-many relationship keeps its members.
package struct SyncEntityShape: Sendable {
    /// One column: an attribute or the foreign key of a to-one relationship.
    package struct Column: Sendable {
        /// The property's name.
        package let property: String
        /// The attribute, for an attribute's column.
        package let attribute: AttributeDescription?
        /// The relationship, for a to-one's foreign key (it holds the destination's row id).
        package let relationship: RelationshipDescription?
        /// The relationship's index in the lineage (what `setToOneObject` takes).
        package let relationshipIndex: Int?
    }

    /// One to-many relationship.
    package struct ToMany: Sendable {
        /// The relationship.
        package let relationship: RelationshipDescription
        /// Its index in the lineage (what `setToMany` takes).
        package let index: Int
        /// Whether its inverse is to-one (its members are the destinations whose foreign key
        /// names the object) rather than another to-many (a link table).
        package let inverseIsToOne: Bool
        /// The query of an object's members' row ids, in stored order; binds the object's row id.
        package let membersSQL: String
    }

    /// The entity.
    package let description: EntityDescription
    /// The table its rows live in (its root entity's).
    package let table: String
    /// Its columns, in ``HookedChange/values`` order.
    package let columns: [Column]
    /// Its lineage's to-many relationships.
    package let toMany: [ToMany]
    /// The configurations whose storages hold it.
    package let configurations: [String]

    /// The entity's name.
    package var name: String { description.name }

    /// The ordinal of the column of a property, if the entity stores it.
    package func ordinal(of property: String) -> Int? {
        columns.firstIndex { $0.property == property }
    }

    init(layout: EntityLayout, store: StoreLayout, configurations: [String]) {
        description = layout.description
        table = layout.table
        self.configurations = configurations
        columns = layout.columns.map { column in
            Column(property: column.property, attribute: column.attribute, relationship: column.relationship,
                   relationshipIndex: column.relationship.flatMap { relationship in layout.relationships.firstIndex { $0 == relationship } })
        }
        toMany = (store.relationships[layout.name] ?? []).filter(\.isToMany).sorted { $0.index < $1.index }.map { relationship in
            let id = SQLFragment.quote(StoreLayout.idColumn)
            let sql: String
            switch relationship.storage {
            case .linkTable(let name):
                sql = "SELECT target FROM " + SQLFragment.quote(name) + " WHERE owner = ? ORDER BY position"
            case .inverseForeignKey(let column, let orderColumn):
                sql = "SELECT " + id + " FROM " + SQLFragment.quote(store.entity(relationship.destination)?.table ?? relationship.destination) + " WHERE " + SQLFragment.quote(column)
                    + " = ? ORDER BY " + SQLFragment.quote(orderColumn ?? StoreLayout.idColumn)
            case .foreignKey:
                sql = ""
            }
            return ToMany(relationship: relationship.description, index: relationship.index,
                          inverseIsToOne: !relationship.inverse.kind.isToMany, membersSQL: sql)
        }
    }
}
