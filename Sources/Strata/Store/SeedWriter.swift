/// Writes a new store file at any version of a model straight from values, with no classes of
/// that version: what the `StrataTesting` library seeds old stores with before migrating them.
///
/// Package access: apps use it through `StrataTesting`, never directly.
package final class SeedWriter {
    private let connection: any DatabaseConnection
    private let layout: StoreLayout
    private let file: String
    /// To-many values, written once every row exists.
    private var pendingToMany: [(owner: Int64, relationship: RelationshipLayout, targets: [Int64])] = []
    /// One-to-one values, whose other side keeps a foreign key too.
    private var pendingToOneInverses: [(owner: Int64, relationship: RelationshipLayout, target: Int64)] = []

    /// Creates the file (which must not exist yet) as an empty store of `version`, holding the
    /// tables of `configuration`, in one transaction that ``finish()`` commits.
    package convenience init(path: String, history: SchemaHistory, version name: String, configuration: String) throws(StrataError) {
        let connection = try SQLiteConnection(path: path, readOnly: false)
        try connection.execute("PRAGMA journal_mode = WAL")
        try self.init(connection: connection, file: path, history: history, version: name, configuration: configuration)
    }

    /// Creates an empty store of `version` through `connection` (a new SQLite file's, or an empty
    /// server database's), named `file` in messages, in one transaction that ``finish()`` commits.
    package init(connection: any DatabaseConnection, file: String, history: SchemaHistory, version name: String,
                 configuration: String) throws(StrataError) {
        guard let version = history.version(named: name) else {
            throw .invalidQuery("\(history.modelName) has no version '\(name)'; it has \(history.versionNames.joined(separator: ", "))")
        }
        guard let entities = version.entities(ofConfiguration: configuration) else {
            throw .unknownConfiguration(configuration, available: ["Default"] + version.configurations.keys.sorted().filter { $0 != "Default" })
        }
        self.file = file
        layout = StoreLayout(version: version, types: [:])
        self.connection = connection
        try connection.beginWriteTransaction()
        try StoreOpener.createSchema(connection, layout: layout, model: history.modelName, configuration: configuration, entities: entities)
    }

    /// Inserts one object: its attributes by property name (stored values; a missing one takes
    /// its default, or NULL without one), its relationships by name (destination ids; to-one takes
    /// the first).
    package func insert(entity name: String, id: Int64, attributes: [String: SQLValue], relationships: [String: [Int64]]) throws(StrataError) {
        guard let entity = layout.entity(name) else { throw .invalidQuery("the version has no entity '\(name)'") }
        let known = Set(entity.columns.map(\.property)).union(entity.relationships.map(\.name))
        if let unknown = (Array(attributes.keys) + Array(relationships.keys)).sorted().first(where: { !known.contains($0) }) {
            throw .invalidQuery("'\(name)' has no property '\(unknown)' in this version")
        }
        var values: [SQLValue] = [.integer(id)]
        if let code = entity.entityCode { values.append(.integer(code)) }
        for column in entity.columns {
            if let attribute = column.attribute {
                values.append(attributes[column.property] ?? attribute.defaultValue ?? .null)
            } else {
                values.append(relationships[column.property]?.first.map { .integer($0) } ?? .null)
            }
        }
        // One statement per entity, reused for every object of it.
        let statement = try connection.cachedStatement(entity.insertSQL)
        statement.bind(values)
        _ = try statement.step()
        for relationship in layout.relationships[name] ?? [] {
            guard let targets = relationships[relationship.name] else { continue }
            if relationship.isToMany {
                pendingToMany.append((id, relationship, targets))
            } else if !relationship.inverse.kind.isToMany, let target = targets.first {
                pendingToOneInverses.append((id, relationship, target))
            }
        }
    }

    /// Writes the to-many relationships and commits the store.
    package func finish() throws(StrataError) {
        do {
            for (owner, relationship, targets) in pendingToMany {
                for (position, target) in targets.enumerated() {
                    switch relationship.storage {
                    case .linkTable(let name):
                        let dialect = connection.dialect
                        try run(dialect.insertReplacing(into: SQLFragment.quote(name), key: "owner, target", value: "position", rows: "VALUES (?, ?, ?)"),
                                [.integer(owner), .integer(target), .integer(Int64(position))])
                        // The inverse side keeps its own link rows.
                        if let inverse = layout.relationships[relationship.destination]?.first(where: { $0.index == relationship.inverseIndex }),
                           case .linkTable(let inverseName) = inverse.storage {
                            try run(dialect.insertSkippingExisting(into: SQLFragment.quote(inverseName), columns: "owner, target, position",
                                                                   rows: "VALUES (?, ?, ?)"), [.integer(target), .integer(owner), .integer(0)])
                        }
                    case .inverseForeignKey(let column, let order):
                        guard let table = layout.entity(relationship.destination)?.table else { continue }
                        var sql = "UPDATE " + SQLFragment.quote(table) + " SET " + SQLFragment.quote(column) + " = ?"
                        var arguments: [SQLValue] = [.integer(owner)]
                        if let order {
                            sql += ", " + SQLFragment.quote(order) + " = ?"
                            arguments.append(.integer(Int64(position)))
                        }
                        try run(sql + " WHERE " + SQLFragment.quote(StoreLayout.idColumn) + " = ?", arguments + [.integer(target)])
                    case .foreignKey:
                        continue
                    }
                }
            }
            for (owner, relationship, target) in pendingToOneInverses {
                guard let destination = layout.entity(relationship.destination),
                      let column = destination.column(forProperty: relationship.inverse.name) else { continue }
                try run("UPDATE " + SQLFragment.quote(destination.table) + " SET " + SQLFragment.quote(column.name) + " = ? WHERE "
                        + SQLFragment.quote(StoreLayout.idColumn) + " = ?", [.integer(owner), .integer(target)])
            }
            try connection.commit()
        } catch {
            try? connection.rollback()
            throw error
        }
    }

    private func run(_ sql: String, _ arguments: [SQLValue]) throws(StrataError) {
        let statement = try connection.cachedStatement(sql)
        statement.bind(arguments)
        _ = try statement.step()
    }
}
