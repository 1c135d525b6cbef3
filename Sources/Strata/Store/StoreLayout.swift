/// One column of a table: an attribute, or the foreign key of a to-one relationship.
struct ColumnLayout: Sendable, Hashable {
    /// The column name (storage key).
    let name: String
    /// The Swift property name.
    let property: String
    /// The entity that declares the property.
    let owner: String
    /// The attribute, for attribute columns.
    let attribute: AttributeDescription?
    /// The relationship, for foreign-key columns.
    let relationship: RelationshipDescription?

    /// The declared type of the column in `dialect`.
    func sqlType(_ dialect: SQLDialect) -> String { attribute.map { dialect.columnType($0.type) } ?? dialect.integer }

    /// The column as a batched write's parameter.
    var written: BatchedWrite.Column { BatchedWrite.Column(name: name, type: attribute?.type) }
}

/// How one entity is stored: its table, its columns in generated-code order, its entity code.
final class EntityLayout: Sendable {
    let description: EntityDescription
    let type: StrataObject.Type
    let table: String
    let tableIndex: Int
    /// Root first, this entity last.
    let lineage: [EntityDescription]
    /// Columns in the order generated code reads and binds them: per lineage entity, its
    /// attributes then its to-one relationships.
    let columns: [ColumnLayout]
    /// This entity's value in the table's entity column, or nil when the table holds one entity.
    let entityCode: Int64?
    /// This entity and every descendant.
    let subtree: [String]
    /// Every relationship of the lineage.
    let relationships: [RelationshipDescription]
    /// The inserts of objects of exactly this entity: id, entity code (if any), then `columns`.
    let insertWrite: BatchedWrite
    /// The deletes of rows of this entity's table, by id.
    let deleteWrite: BatchedWrite
    /// The `INSERT` of one object of exactly this entity (``insertWrite``'s statement).
    var insertSQL: String { insertWrite.sql }
    /// Position of each column in `columns`, by property name (attributes and to-one relationships).
    let ordinals: [String: Int]
    /// Ordinals of attributes that must be assigned before a new object is saved.
    let requiredOrdinals: [Int]
    /// `requiredOrdinals` as a column set: while all are below 64, one test of a new object's
    /// changed columns tells whether it set them all.
    let requiredColumns: ColumnSet
    /// The key paths the class's accessors report to Observation.
    let observed: ObservedKeyPaths

    var name: String { description.name }

    init(description: EntityDescription, type: StrataObject.Type, table: String, tableIndex: Int, lineage: [EntityDescription],
         entityCode: Int64?, subtree: [String]) {
        self.description = description
        self.type = type
        self.table = table
        self.tableIndex = tableIndex
        self.lineage = lineage
        self.entityCode = entityCode
        self.subtree = subtree
        var columns: [ColumnLayout] = []
        for entity in lineage {
            columns += entity.attributes.map {
                ColumnLayout(name: $0.storageKey, property: $0.name, owner: entity.name, attribute: $0, relationship: nil)
            }
            columns += entity.relationships.filter { !$0.kind.isToMany }.map {
                ColumnLayout(name: $0.storageKey, property: $0.name, owner: entity.name, attribute: nil, relationship: $0)
            }
        }
        self.columns = columns
        self.relationships = lineage.flatMap(\.relationships)
        self.ordinals = Dictionary(columns.enumerated().map { ($1.property, $0) }, uniquingKeysWith: { first, _ in first })
        self.requiredOrdinals = columns.indices.filter { columns[$0].attribute?.isRequired == true }
        var requiredColumns = ColumnSet()
        for ordinal in requiredOrdinals { _ = requiredColumns.insert(ordinal) }
        self.requiredColumns = requiredColumns
        var written = [BatchedWrite.Column(name: StoreLayout.idColumn, type: nil)]
        if entityCode != nil { written.append(BatchedWrite.Column(name: StoreLayout.entityColumn, type: nil)) }
        written += columns.map(\.written)
        self.insertWrite = .insert(into: table, columns: written)
        self.deleteWrite = .delete(from: table, key: StoreLayout.idColumn)
        self.observed = ObservedKeyPaths(type.observedProperties)
    }

    /// The column of a property of the lineage, if it is stored in this table.
    func column(forProperty property: String) -> ColumnLayout? {
        ordinals[property].map { columns[$0] }
    }

    /// The relationship of the lineage with a Swift name.
    func relationship(named name: String) -> RelationshipDescription? {
        relationships.first { $0.name == name }
    }
}

/// One table: a root entity and its subentities.
struct TableLayout: Sendable {
    let name: String
    /// Every entity stored here, root first.
    let entities: [String]
    /// Whether rows carry an entity code.
    let hasEntityColumn: Bool
    /// Every column of every entity stored here, root lineage first.
    let columns: [ColumnLayout]
    /// The root entity.
    let root: EntityDescription
}

/// The storage layout of one model version: tables, columns and entity codes.
package final class StoreLayout: Sendable {
    /// The integer primary key of every table.
    package static let idColumn = "strata_id"
    /// The entity code of tables shared by a hierarchy.
    static let entityColumn = "strata_entity"

    let version: ModelVersion
    let tables: [TableLayout]
    let entities: [String: EntityLayout]
    /// Each entity's relationships (its whole lineage's), resolved.
    let relationships: [String: [RelationshipLayout]]

    init(version: ModelVersion, types: [String: StrataObject.Type]) {
        self.version = version
        let byName = Dictionary(version.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func descendants(_ name: String) -> [String] {
            let children = version.entities.filter { $0.parent == name }.map(\.name).sorted()
            return children.flatMap { [$0] + descendants($0) }
        }
        var tables: [TableLayout] = []
        var entities: [String: EntityLayout] = [:]
        for root in version.entities.filter({ $0.parent == nil }).sorted(by: { $0.name < $1.name }) {
            let members = [root.name] + descendants(root.name)
            let hasEntityColumn = members.count > 1
            var columns: [ColumnLayout] = []
            for (offset, member) in members.enumerated() {
                guard let description = byName[member] else { continue }
                let code: Int64? = hasEntityColumn ? Int64(offset + 1) : nil
                let type = types[member] ?? StrataObject.self
                let layout = EntityLayout(description: description, type: type, table: root.name, tableIndex: tables.count,
                                          lineage: version.lineage(of: description) { byName[$0] }, entityCode: code, subtree: [member] + descendants(member))
                entities[member] = layout
                for column in layout.columns where !columns.contains(where: { $0.name == column.name }) {
                    columns.append(column)
                }
            }
            tables.append(TableLayout(name: root.name, entities: members, hasEntityColumn: hasEntityColumn, columns: columns, root: root))
        }
        self.tables = tables
        self.entities = entities
        self.relationships = StoreLayout.relationshipLayouts(entities: entities)
    }

    /// The resolved relationship at a lineage index of an entity.
    func relationship(_ index: Int, of entity: String) -> RelationshipLayout? {
        relationships[entity]?.first { $0.index == index }
    }

    /// The layout of an entity of this version.
    func entity(_ name: String) -> EntityLayout? { entities[name] }
}
