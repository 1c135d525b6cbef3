/// The DDL of a store: a table per root entity, indexes, and Strata's own bookkeeping tables.
enum SchemaSQL {
    /// Model name, version and lock of the store.
    static let metadataTable = "strata_metadata"
    /// The next row id of each table, so ids of deleted rows are never reused.
    static let sequenceTable = "strata_sequence"
    /// The layout format, recorded in the metadata.
    static let layoutFormat = "1"

    /// Every statement that creates an empty store of `layout`.
    static func create(_ layout: StoreLayout, tables names: Set<String>) -> [String] {
        var statements = [
            "CREATE TABLE \(SQLFragment.quote(metadataTable)) (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)",
            "CREATE TABLE \(SQLFragment.quote(sequenceTable)) (name TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL)",
        ]
        for table in layout.tables where names.contains(table.name) {
            statements += create(table, layout: layout)
        }
        var links: Set<String> = []
        for relationship in layout.relationships.values.flatMap({ $0 }) {
            guard case .linkTable(let name) = relationship.storage, let table = layout.entity(relationship.owner)?.table,
                  names.contains(table), links.insert(name).inserted else { continue }
        }
        for name in links.sorted() {
            statements.append("CREATE TABLE \(SQLFragment.quote(name)) (owner INTEGER NOT NULL, target INTEGER NOT NULL, "
                              + "position INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (owner, target)) WITHOUT ROWID")
            statements.append("CREATE INDEX \(SQLFragment.quote(name + "_target")) ON \(SQLFragment.quote(name)) (target)")
        }
        return statements
    }

    private static func create(_ table: TableLayout, layout: StoreLayout) -> [String] {
        let quotedTable = SQLFragment.quote(table.name)
        var columns = [SQLFragment.quote(StoreLayout.idColumn) + " INTEGER PRIMARY KEY NOT NULL"]
        if table.hasEntityColumn { columns.append(SQLFragment.quote(StoreLayout.entityColumn) + " INTEGER NOT NULL") }
        for column in table.columns {
            let required = column.owner == table.root.name && column.attribute.map { !$0.isOptional } == true
            columns.append(SQLFragment.quote(column.name) + " " + column.sqlType + (required ? " NOT NULL" : ""))
        }
        for column in orderColumns(of: table, layout: layout) {
            columns.append(SQLFragment.quote(column) + " INTEGER")
        }
        var statements = ["CREATE TABLE \(quotedTable) (" + columns.joined(separator: ", ") + ")"]
        // Index names count per table: storage keys may hold any character, so names built from
        // them could collide.
        var count = 0
        func index(_ keys: [String], unique: Bool) {
            count += 1
            let name = "strata_" + (unique ? "unique_" : "index_") + table.name + "_\(count)"
            statements.append("CREATE " + (unique ? "UNIQUE " : "") + "INDEX " + SQLFragment.quote(name) + " ON " + quotedTable
                              + " (" + keys.map(SQLFragment.quote).joined(separator: ", ") + ")")
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
        return statements
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
    /// Every statement that creates an empty store holding every entity of `version`, in order.
    public static func statements(for version: ModelVersion) -> [String] {
        let layout = StoreLayout(version: version, types: [:])
        return SchemaSQL.create(layout, tables: Set(layout.tables.map(\.name)))
    }
}
