/// The DDL of a store: a table per root entity, indexes, and Strata's own bookkeeping tables.
package enum SchemaSQL {
    /// Model name, version and lock of the store.
    static let metadataTable = "strata_metadata"
    /// The next row id of each table, so ids of deleted rows are never reused.
    package static let sequenceTable = "strata_sequence"

    /// Every statement that creates an empty store of `layout`.
    static func create(_ layout: StoreLayout, tables names: Set<String>, dialect: SQLDialect = .sqlite) -> [String] {
        var statements = [
            "CREATE TABLE \(SQLFragment.quote(metadataTable)) (key \(dialect.text) PRIMARY KEY NOT NULL, value \(dialect.text) NOT NULL)",
            "CREATE TABLE \(SQLFragment.quote(sequenceTable)) (name \(dialect.text) PRIMARY KEY NOT NULL, value \(dialect.integer) NOT NULL)",
        ]
        for table in layout.tables where names.contains(table.name) {
            let definition = self.table(table, layout: layout, dialect: dialect)
            statements.append(definition.create(named: table.name))
            statements += definition.indexes.map(\.sql)
        }
        for name in linkTables(layout, tables: names) {
            statements += createLinkTable(name, dialect: dialect)
        }
        return statements
    }

    /// The link tables of the many-to-many relationships whose owners live in `names`, sorted.
    static func linkTables(_ layout: StoreLayout, tables names: Set<String>) -> [String] {
        var links: Set<String> = []
        for relationship in layout.relationships.values.flatMap({ $0 }) {
            guard case .linkTable(let name) = relationship.storage, let table = layout.entity(relationship.owner)?.table,
                  names.contains(table) else { continue }
            links.insert(name)
        }
        return links.sorted()
    }

    /// The statements creating one link table and its index.
    static func createLinkTable(_ name: String, dialect: SQLDialect = .sqlite) -> [String] {
        let integer = dialect.integer
        return ["CREATE TABLE \(SQLFragment.quote(name)) (owner \(integer) NOT NULL, target \(integer) NOT NULL, "
            + "position \(integer) NOT NULL DEFAULT 0, PRIMARY KEY (owner, target))" + dialect.keyOnlyTableSuffix,
         "CREATE INDEX \(SQLFragment.quote(dialect.madeUpName(name + "_target"))) ON \(SQLFragment.quote(name)) (target)"]
    }

    /// The definition of one table: its columns and its indexes.
    static func table(_ table: TableLayout, layout: StoreLayout, dialect: SQLDialect = .sqlite) -> TableDefinition {
        let quotedTable = SQLFragment.quote(table.name)
        var columns = [ColumnDefinition(name: StoreLayout.idColumn, type: dialect.idColumn, isRequired: true)]
        if table.hasEntityColumn { columns.append(ColumnDefinition(name: StoreLayout.entityColumn, type: dialect.integer, isRequired: true)) }
        for column in table.columns {
            let required = column.owner == table.root.name && column.attribute.map { !$0.isOptional } == true
            columns.append(ColumnDefinition(name: column.name, type: column.sqlType(dialect), isRequired: required,
                                            attributeType: column.attribute?.type))
        }
        for column in orderColumns(of: table, layout: layout) {
            columns.append(ColumnDefinition(name: column, type: dialect.integer, isRequired: false))
        }
        // Index names count per table: storage keys may hold any character, so names built from
        // them could collide.
        var indexes: [IndexDefinition] = []
        func index(_ keys: [String], unique: Bool) {
            let name = dialect.madeUpName("strata_" + (unique ? "unique_" : "index_") + table.name + "_\(indexes.count + 1)")
            indexes.append(IndexDefinition(name: name, sql: "CREATE " + (unique ? "UNIQUE " : "") + "INDEX " + SQLFragment.quote(name)
                                           + " ON " + quotedTable + " (" + keys.map(SQLFragment.quote).joined(separator: ", ") + ")"))
        }
        if table.hasEntityColumn { index([StoreLayout.entityColumn], unique: false) }
        for column in table.columns {
            if let attribute = column.attribute {
                if attribute.isUnique { index([column.name], unique: true) } else if attribute.isIndexed { index([column.name], unique: false) }
            } else {
                index([column.name], unique: false)
            }
        }
        for name in table.entities {
            for group in layout.entity(name)?.description.uniqueness ?? [] { index(group, unique: true) }
        }
        return TableDefinition(columns: columns, indexes: indexes)
    }

    /// Order columns other tables' ordered to-many relationships keep in this table.
    static func orderColumns(of table: TableLayout, layout: StoreLayout) -> [String] {
        var result: [String] = []
        for relationship in layout.relationships.values.flatMap({ $0 }) {
            guard case .inverseForeignKey(_, let order?) = relationship.storage,
                  layout.entity(relationship.destination)?.table == table.name, !result.contains(order) else { continue }
            result.append(order)
        }
        return result.sorted()
    }
}

/// The SQL a store of a model version is created with, for tools (`strata sql`) and the curious.
public enum StoreSchemaSQL {
    /// Every statement that creates an empty store holding every entity of `version`, in order,
    /// in the SQL of `dialect`.
    public static func statements(for version: ModelVersion, dialect: SQLDialect = .sqlite) -> [String] {
        let layout = StoreLayout(version: version, types: [:])
        return SchemaSQL.create(layout, tables: Set(layout.tables.map(\.name)), dialect: dialect)
    }
}

/// One column of a table's DDL.
struct ColumnDefinition: Sendable, Hashable {
    let name: String
    /// The declared type, as the store's ``SQLDialect`` spells it.
    let type: String
    /// Whether the column is `NOT NULL`.
    let isRequired: Bool
    /// The attribute type of an attribute's column; nil for ids, entity codes, keys and positions.
    var attributeType: AttributeType? = nil

    /// `"name" TYPE [NOT NULL]`.
    var sql: String { SQLFragment.quote(name) + " " + type + (isRequired ? " NOT NULL" : "") }
}

/// One index of a table's DDL.
struct IndexDefinition: Sendable, Hashable {
    let name: String
    /// The `CREATE INDEX` statement.
    let sql: String
}

/// A table's DDL: its columns in order and its indexes.
struct TableDefinition: Sendable {
    let columns: [ColumnDefinition]
    let indexes: [IndexDefinition]

    /// The `CREATE TABLE` statement, under `name` (a migration builds a table under a temporary name).
    func create(named name: String) -> String {
        "CREATE TABLE \(SQLFragment.quote(name)) (" + columns.map(\.sql).joined(separator: ", ") + ")"
    }

    /// The column with a name.
    func column(named name: String) -> ColumnDefinition? { columns.first { $0.name == name } }
}
