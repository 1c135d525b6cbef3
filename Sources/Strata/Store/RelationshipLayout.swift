/// How one relationship is stored, resolved against both ends.
struct RelationshipLayout: Sendable {
    enum Storage: Sendable {
        /// A to-one: the foreign-key column at this lineage ordinal of the source.
        case foreignKey(ordinal: Int)
        /// A to-many whose inverse is to-one: the destination's foreign-key column points back;
        /// an ordered one keeps each destination's position in `orderColumn` of the destination table.
        case inverseForeignKey(column: String, orderColumn: String?)
        /// A many-to-many side: rows (owner, target, position) of a link table of its own.
        case linkTable(name: String)
    }

    /// The relationship as declared.
    let description: RelationshipDescription
    /// Its position among the source lineage's relationships.
    let index: Int
    /// The entity that declares it.
    let owner: String
    /// The destination entity.
    let destination: String
    /// The inverse relationship, as declared on the destination's lineage.
    let inverse: RelationshipDescription
    /// The inverse's index among the destination lineage's relationships.
    let inverseIndex: Int
    let storage: Storage
    /// The statements that write a to-many's rows, built once with the layout: for a link table,
    /// clearing an owner's rows and inserting one; for an ordered to-many with a to-one inverse,
    /// setting a destination's position.
    let clearLinksSQL: String?
    let insertLinkSQL: String?
    let setPositionSQL: String?

    init(description: RelationshipDescription, index: Int, owner: String, destination: EntityLayout, inverse: RelationshipDescription,
         inverseIndex: Int, storage: Storage) {
        self.description = description
        self.index = index
        self.owner = owner
        self.destination = destination.name
        self.inverse = inverse
        self.inverseIndex = inverseIndex
        self.storage = storage
        switch storage {
        case .linkTable(let name):
            clearLinksSQL = "DELETE FROM " + SQLFragment.quote(name) + " WHERE owner = ?"
            insertLinkSQL = "INSERT INTO " + SQLFragment.quote(name) + " (owner, target, position) VALUES (?, ?, ?)"
            setPositionSQL = nil
        case .inverseForeignKey(_, let orderColumn?):
            clearLinksSQL = nil
            insertLinkSQL = nil
            setPositionSQL = "UPDATE " + SQLFragment.quote(destination.table) + " SET " + SQLFragment.quote(orderColumn)
                + " = ? WHERE " + SQLFragment.quote(StoreLayout.idColumn) + " = ?"
        default:
            clearLinksSQL = nil
            insertLinkSQL = nil
            setPositionSQL = nil
        }
    }

    var name: String { description.name }
    var isToMany: Bool { description.kind.isToMany }
    var isOrdered: Bool { description.kind == .ordered }

    /// The order column kept on a destination table for an ordered to-many with a to-one inverse.
    static func orderColumn(forForeignKey column: String) -> String { "strata_order_" + column }

    /// The link table of a many-to-many side. The table name's length keeps names of different
    /// (table, storage key) pairs apart even when both hold underscores.
    static func linkTable(table: String, relationship storageKey: String) -> String {
        "strata_link_" + table + "_\(table.count)_" + storageKey
    }
}

extension StoreLayout {
    /// Resolves the relationships of every entity: storage scheme and inverse of each.
    static func relationshipLayouts(entities: [String: EntityLayout]) -> [String: [RelationshipLayout]] {
        var result: [String: [RelationshipLayout]] = [:]
        for (name, entity) in entities {
            result[name] = entity.relationships.enumerated().compactMap { index, relationship in
                guard let destination = entities[relationship.destination],
                      let inverseIndex = destination.relationships.firstIndex(where: { $0.name == relationship.inverse }) else { return nil }
                let inverse = destination.relationships[inverseIndex]
                let owner = entity.lineage.first { $0.relationships.contains(relationship) }?.name ?? name
                let storage: RelationshipLayout.Storage
                if !relationship.kind.isToMany {
                    storage = .foreignKey(ordinal: entity.ordinals[relationship.name] ?? -1)
                } else if !inverse.kind.isToMany {
                    storage = .inverseForeignKey(column: inverse.storageKey,
                                                 orderColumn: relationship.kind == .ordered ? RelationshipLayout.orderColumn(forForeignKey: inverse.storageKey) : nil)
                } else {
                    storage = .linkTable(name: RelationshipLayout.linkTable(table: entity.table, relationship: relationship.storageKey))
                }
                return RelationshipLayout(description: relationship, index: index, owner: owner, destination: destination,
                                          inverse: inverse, inverseIndex: inverseIndex, storage: storage)
            }
        }
        return result
    }
}
