/// Collects a step's operations in the order they must run: tables changed in place, tables built
/// under temporary names, old tables dropped, temporary names made final, indexes created, and
/// the bookkeeping (references to rows a step left out, row-id sequences, the recorded version).
struct PlanBuilder {
    /// The SQL the step is written in.
    let dialect: SQLDialect
    private var inPlace: [MigrationOperation] = []
    private var built: [MigrationOperation] = []
    private var dropped: [MigrationOperation] = []
    private var renamed: [MigrationOperation] = []
    private var created: [MigrationOperation] = []
    private var bookkeeping: [MigrationOperation] = []
    /// New tables that may have lost rows (a custom step left some out, or an entity's rows were
    /// not carried over), so references to those rows must be cleared.
    private var tablesWithLostRows: Set<String> = []
    /// One line per table saying how the step treats it, for people (`strata diff`).
    private(set) var notes: [String] = []

    /// Links copied into temporary tables before anything changes, for sides whose storage changes.
    private var snapshots: [MigrationOperation] = []

    /// Temporary tables read until the end (the id offsets), dropped last.
    private var finalDrops: [MigrationOperation] = []

    var operations: [MigrationOperation] { snapshots + inPlace + built + dropped + renamed + created + bookkeeping + finalDrops }

    /// The name a table is built under until the old tables are gone.
    static func temporaryName(_ table: String) -> String { "strata_migration_" + table }

    private static func q(_ name: String) -> String { SQLFragment.quote(name) }

    private static func sql(_ text: String, _ arguments: [SQLValue] = []) -> MigrationOperation {
        .sql(MigrationStatement(text, arguments))
    }

    init(dialect: SQLDialect) {
        self.dialect = dialect
    }

    /// `CASE "strata_entity" WHEN ? THEN ? ... END`: each old entity code as its new one.
    private func renumbered(_ codes: [Int64: Int64]) -> MigrationStatement {
        let old = codes.keys.sorted()
        let then = " THEN " + dialect.parameter(for: nil)
        return MigrationStatement("CASE " + Self.q(StoreLayout.entityColumn) + old.map { _ in " WHEN ?" + then }.joined() + " END",
                                  old.flatMap { [SQLValue.integer($0), .integer(codes[$0]!)] })
    }

    /// A table changed with `ALTER TABLE`: indexes that no longer fit dropped, columns dropped,
    /// renamed and added, entity codes renumbered, and the table renamed if its entity was.
    mutating func alter(_ mapping: TableMapping) {
        let operationCount = inPlace.count + created.count
        let table = Self.q(mapping.old.name)
        let keepsName = mapping.old.name == mapping.new.name
        let wanted = Set(mapping.newDefinition.indexes)
        for index in mapping.oldDefinition.indexes where !keepsName || !wanted.contains(index) {
            inPlace.append(Self.sql("DROP INDEX " + Self.q(index.name)))
        }
        var used: Set<String> = []
        var renames: [(String, String)] = []
        var additions: [(ColumnDefinition, SQLValue)] = []
        var codeMap: [Int64: Int64] = [:]
        for (column, source) in zip(mapping.newDefinition.columns, mapping.sources) {
            switch source {
            case .id: continue
            case .entityCode(let map, _): codeMap = map
            case .column(let name, _, _):
                used.insert(name)
                if name != column.name { renames.append((name, column.name)) }
            case .constant(let value): additions.append((column, value))
            case .randomUUID: continue  // canAlterInPlace sends these tables to a rebuild
            }
        }
        for column in mapping.oldDefinition.columns where column.name != StoreLayout.idColumn && column.name != StoreLayout.entityColumn
            && !used.contains(column.name) {
            inPlace.append(Self.sql("ALTER TABLE " + table + " DROP COLUMN " + Self.q(column.name)))
        }
        for (from, to) in renames {
            inPlace.append(Self.sql("ALTER TABLE " + table + " RENAME COLUMN " + Self.q(from) + " TO " + Self.q(to)))
        }
        for (column, value) in additions {
            // canAlterInPlace admitted only values with a literal.
            let defaultClause = value.isNull ? "" : " DEFAULT " + (dialect.literal(value, for: column.attributeType) ?? "NULL")
            inPlace.append(Self.sql("ALTER TABLE " + table + " ADD COLUMN " + column.sql + defaultClause))
        }
        if codeMap.contains(where: { $0.key != $0.value }) {
            let renumbered = renumbered(codeMap)
            inPlace.append(Self.sql("UPDATE " + table + " SET " + Self.q(StoreLayout.entityColumn) + " = " + renumbered.text, renumbered.arguments))
        }
        if !keepsName {
            inPlace.append(Self.sql("ALTER TABLE " + table + " RENAME TO " + Self.q(Self.temporaryName(mapping.new.name))))
            renamed.append(Self.sql("ALTER TABLE " + Self.q(Self.temporaryName(mapping.new.name)) + " RENAME TO " + Self.q(mapping.new.name)))
        }
        let existing = keepsName ? Set(mapping.oldDefinition.indexes) : []
        created += mapping.newDefinition.indexes.filter { !existing.contains($0) }.map { Self.sql($0.sql) }
        var changes: [String] = []
        if !keepsName { changes.append("renamed from \(mapping.old.name)") }
        if !additions.isEmpty { changes.append("added " + additions.map(\.0.name).joined(separator: ", ")) }
        if !renames.isEmpty { changes.append("renamed " + renames.map { "\($0.0) → \($0.1)" }.joined(separator: ", ")) }
        let drops = mapping.oldDefinition.columns.map(\.name).filter {
            $0 != StoreLayout.idColumn && $0 != StoreLayout.entityColumn && !used.contains($0)
        }
        if !drops.isEmpty { changes.append("dropped " + drops.joined(separator: ", ")) }
        if codeMap.contains(where: { $0.key != $0.value }) { changes.append("entity codes renumbered") }
        if changes.isEmpty { changes.append("indexes changed") }
        // A table the step does not touch gets no note.
        guard inPlace.count + created.count > operationCount else { return }
        notes.append("\(mapping.new.name): changed in place, rows untouched (\(changes.joined(separator: "; ")))")
    }

    /// A table built anew under a temporary name, filled from each of `mappings`' old tables (the
    /// inferred rows with one `INSERT ... SELECT` each, the custom ones row by row). Rows of a table
    /// with an offset (an entity moving into this hierarchy) take ids past those already there.
    mutating func rebuild(_ table: TableLayout, mappings: [(TableMapping, String?)], definition: TableDefinition, layout: StoreLayout) {
        let temporary = Self.temporaryName(table.name)
        built.append(Self.sql(definition.create(named: temporary)))
        for (mapping, offset) in mappings {
            if mapping.copiedCodes.map({ !$0.isEmpty }) ?? true {
                var arguments: [SQLValue] = []
                var expressions: [String] = []
                for (column, source) in zip(definition.columns, mapping.sources) {
                    switch source {
                    case .id:
                        expressions.append(Self.q(StoreLayout.idColumn) + (offset.map { " + " + $0 } ?? ""))
                    case .entityCode(_, let constant?):
                        expressions.append(dialect.parameter(for: nil))
                        arguments.append(.integer(constant))
                    case .entityCode(let map, nil):
                        let renumbered = renumbered(map)
                        expressions.append(renumbered.text)
                        arguments += renumbered.arguments
                    case .column(let name, let conversion, let fallback):
                        let expression = conversion.apply(to: Self.q(name), dialect: dialect)
                        if let fallback {
                            expressions.append("COALESCE(" + expression + ", ?)")
                            arguments.append(fallback)
                        } else {
                            expressions.append(expression)
                        }
                    case .constant(let value):
                        expressions.append(dialect.parameter(for: column.attributeType))
                        arguments.append(value)
                    case .randomUUID:
                        expressions.append(dialect.randomUUID)
                    }
                }
                var text = "INSERT INTO " + Self.q(temporary) + " (" + definition.columns.map { Self.q($0.name) }.joined(separator: ", ")
                    + ") SELECT " + expressions.joined(separator: ", ") + " FROM " + Self.q(mapping.old.name)
                if let codes = mapping.copiedCodes {
                    text += " WHERE " + Self.q(StoreLayout.entityColumn) + " IN (" + codes.map { _ in "?" }.joined(separator: ", ") + ")"
                    arguments += codes.map { .integer($0) }
                }
                built.append(Self.sql(text, arguments))
            }
            for member in mapping.customMembers {
                built.append(.customRows(customRows(member, table: table, mapping: mapping, definition: definition, layout: layout, idOffset: offset)))
            }
            if mapping.copiedCodes != nil || !mapping.customMembers.isEmpty { tablesWithLostRows.insert(table.name) }
        }
        renamed.append(Self.sql("ALTER TABLE " + Self.q(temporary) + " RENAME TO " + Self.q(table.name)))
        created += definition.indexes.map { Self.sql($0.sql) }
        if mappings.isEmpty {
            notes.append("\(table.name): created empty")
        } else {
            let custom = mappings.flatMap { $0.0.customMembers.map(\.entity) }
            let movedIn = mappings.dropFirst().map(\.0.old.name)
            notes.append("\(table.name): rebuilt from \(mappings.map(\.0.old.name).joined(separator: " and ")), "
                         + (movedIn.isEmpty ? "row ids kept" : "rows of \(movedIn.joined(separator: ", ")) take new ids, references follow")
                         + (custom.isEmpty ? "" : "; \(custom.joined(separator: ", ")) rows made one by one by the app's custom step"))
        }
    }

    /// Rows of an old table that join another hierarchy's table and take new ids.
    struct MovedRows {
        /// The SQL reading the offset added to their ids.
        let offset: String
        /// The temporary table listing their old ids.
        let ids: String
        /// Their entities, by their old names.
        let entities: Set<String>
    }

    /// Prepares the move of an old table's rows (those with `codes`, or all) into `table`: before
    /// anything changes, their ids are listed and an offset is computed that puts them past every
    /// id of the table's earlier sources (and of the first one's sequence) and past the moving
    /// table's own ids, so shifted ids never meet unshifted ones.
    mutating func moveRows(of old: String, into table: String, codes: [Int64]?, entities: Set<String>, after previous: String, first: String,
                           isSecond: Bool) -> MovedRows {
        let temp = dialect.temporarySchema + "."
        let offset = temp + Self.q(dialect.madeUpName("strata_offset_" + old + "_" + table))
        let ids = temp + Self.q(dialect.madeUpName("strata_moved_" + old + "_" + table))
        let id = Self.q(StoreLayout.idColumn)
        let maximum = { (name: String) in "coalesce((SELECT max(" + id + ") FROM " + Self.q(name) + "), 0)" }
        snapshots.append(Self.sql("CREATE TEMP TABLE " + offset + " (value " + dialect.integer + " NOT NULL)"))
        if isSecond {
            let sequence = "coalesce((SELECT value FROM " + Self.q(SchemaSQL.sequenceTable) + " WHERE name = ?), 0)"
            snapshots.append(Self.sql("INSERT INTO " + offset + " SELECT " + dialect.greatest([maximum(first), sequence, maximum(old)]), [.text(first)]))
        } else {
            let previousOffset = "(SELECT value FROM " + temp + Self.q(dialect.madeUpName("strata_offset_" + previous + "_" + table)) + ")"
            snapshots.append(Self.sql("INSERT INTO " + offset + " SELECT " + dialect.greatest([previousOffset + " + " + maximum(previous), maximum(old)])))
        }
        snapshots.append(Self.sql("CREATE TEMP TABLE " + ids + " (id " + dialect.idColumn + ")"))
        var select = "INSERT INTO " + ids + " SELECT " + id + " FROM " + Self.q(old)
        if let codes { select += " WHERE " + Self.q(StoreLayout.entityColumn) + " IN (" + codes.map { _ in "?" }.joined(separator: ", ") + ")" }
        snapshots.append(Self.sql(select, (codes ?? []).map { .integer($0) }))
        finalDrops += [Self.sql("DROP TABLE " + offset), Self.sql("DROP TABLE " + ids)]
        return MovedRows(offset: "(SELECT value FROM " + offset + ")", ids: ids, entities: entities)
    }

    /// References to rows that took new ids follow them: foreign keys pointing at them and link
    /// rows naming them (only those, by the ids listed before the move).
    mutating func shiftReferences(to moved: [MovedRows], planner: MigrationPlanner) {
        guard !moved.isEmpty else { return }
        var seen: Set<String> = []
        // The old entities a relationship's values may name: an entity and its subentities.
        let subtree = { (name: String) in Set(planner.oldLayout.entity(name)?.subtree ?? [name]) }
        for relationship in planner.newLayout.relationships.values.flatMap({ $0 }).sorted(by: { ($0.owner, $0.name) < ($1.owner, $1.name) }) {
            guard seen.insert(relationship.owner + "." + relationship.name).inserted, let oldOwner = planner.sources[relationship.owner],
                  let old = planner.oldLayout.relationships[oldOwner]?.first(where: {
                      $0.name == planner.oldPropertyName(relationship.name, ofEntity: relationship.owner)
                  }) else { continue }
            for group in moved {
                let movesTargets = !group.entities.isDisjoint(with: subtree(old.destination))
                let movesOwners = !group.entities.isDisjoint(with: subtree(oldOwner))
                let shift = { (column: String) in column + " = " + column + " + " + group.offset }
                let named = { (column: String) in column + " IN (SELECT id FROM " + group.ids + ")" }
                switch relationship.storage {
                case .foreignKey:
                    guard movesTargets, let owner = planner.newLayout.entity(relationship.owner),
                          let column = owner.column(forProperty: relationship.name) else { continue }
                    let quoted = Self.q(column.name)
                    bookkeeping.append(Self.sql("UPDATE " + Self.q(owner.table) + " SET " + shift(quoted) + " WHERE " + named(quoted)))
                case .linkTable(let name):
                    // Owners and targets are shifted apart: a self-relationship's rows name moved rows on both sides.
                    if movesOwners { bookkeeping.append(Self.sql("UPDATE " + Self.q(name) + " SET " + shift("owner") + " WHERE " + named("owner"))) }
                    if movesTargets { bookkeeping.append(Self.sql("UPDATE " + Self.q(name) + " SET " + shift("target") + " WHERE " + named("target"))) }
                case .inverseForeignKey:
                    continue  // its inverse is a to-one, shifted above
                }
            }
        }
    }

    private func customRows(_ member: (entity: String, source: String, codes: [Int64]?), table: TableLayout, mapping: TableMapping,
                            definition: TableDefinition, layout: StoreLayout, idOffset: String?) -> CustomRowsOperation {
        let entityCode = table.hasEntityColumn ? table.entities.firstIndex(of: member.entity).map { Int64($0 + 1) } : nil
        // The entity's own attributes (its ancestors' first), in the order its values bind them.
        let attributeColumns = layout.entity(member.entity)?.columns.filter { $0.attribute != nil }.map(\.name) ?? []
        let attributeNames = Set(mapping.new.columns.filter { $0.attribute != nil }.map(\.name))
        var copied: [(destination: String, source: String?)] = []
        for (column, source) in zip(definition.columns, mapping.sources) where !attributeNames.contains(column.name) {
            guard column.name != StoreLayout.idColumn, column.name != StoreLayout.entityColumn else { continue }
            if case .column(let name, _, _) = source {
                copied.append((column.name, name))
            } else {
                copied.append((column.name, nil))
            }
        }
        return CustomRowsOperation(entity: member.entity, sourceEntity: member.source, sourceTable: mapping.old.name,
                                   destinationTable: Self.temporaryName(table.name), sourceCodes: member.codes,
                                   sourceColumns: mapping.oldDefinition.columns.map(\.name), entityCode: entityCode,
                                   attributeColumns: attributeColumns, copiedColumns: copied, idOffset: idOffset)
    }

    /// Old tables that are not kept in place are dropped once every new table is built.
    mutating func finish(droppedTables: [String], renamedInPlace: [String: String], rebuilt: [TableLayout], planner: MigrationPlanner) {
        dropped += droppedTables.map { Self.sql("DROP TABLE " + Self.q($0)) }
        let sources = Set(rebuilt.flatMap { $0.entities.compactMap { planner.sources[$0] }.compactMap { planner.oldLayout.entity($0)?.table } })
        notes += droppedTables.filter { !sources.contains($0) }.map { "\($0): dropped with its rows" }
        sequences(renamedInPlace: renamedInPlace, rebuilt: rebuilt, planner: planner)
    }

    /// Link tables of many-to-many relationships.
    mutating func linkTables(dropped droppedNames: [String], renamed renames: [(String, String)], created createdNames: [String]) {
        for (from, to) in renames {
            inPlace.append(Self.sql("ALTER TABLE " + Self.q(from) + " RENAME TO " + Self.q(Self.temporaryName(to))))
            renamed.append(Self.sql("ALTER TABLE " + Self.q(Self.temporaryName(to)) + " RENAME TO " + Self.q(to)))
        }
        dropped += droppedNames.map { Self.sql("DROP TABLE " + Self.q($0)) }
        created += createdNames.flatMap { SchemaSQL.createLinkTable($0, dialect: dialect).map { Self.sql($0) } }
        notes += renames.map { "\($0.1): link table renamed from \($0.0)" } + createdNames.map { "\($0): link table created" }
            + droppedNames.map { "\($0): link table dropped" }
    }

    /// Relationship sides that move from a foreign key to a link table of their own: their links
    /// are read into a temporary table before any table changes, and written into the new link
    /// table once it exists. The entity codes in `pairs` are literal: they are Strata's own numbers.
    mutating func carryLinks(_ carried: [(table: String, pairs: String)]) {
        for (index, link) in carried.enumerated() {
            let temporary = dialect.temporarySchema + "." + Self.q("strata_links_\(index + 1)")
            let integer = dialect.integer
            snapshots.append(Self.sql("CREATE TEMP TABLE " + temporary + " (owner \(integer), target \(integer), position \(integer))"))
            snapshots.append(Self.sql("INSERT INTO " + temporary + " " + link.pairs))
            bookkeeping.append(Self.sql(dialect.insertSkippingExisting(into: Self.q(link.table), columns: "owner, target, position",
                                                                       rows: "SELECT owner, target, position FROM " + temporary)))
            bookkeeping.append(Self.sql("DROP TABLE " + temporary))
            notes.append("\(link.table): filled with the links the relationship kept in a foreign key")
        }
    }

    /// Clears references to rows that did not survive the step: foreign keys set to NULL, link
    /// rows deleted.
    mutating func cleanUpDanglingReferences(planner: MigrationPlanner) {
        guard !tablesWithLostRows.isEmpty else { return }
        let id = Self.q(StoreLayout.idColumn)
        let tables = Set(planner.newTables.map(\.name))
        for relationship in planner.newLayout.relationships.values.flatMap({ $0 }).sorted(by: { ($0.owner, $0.name) < ($1.owner, $1.name) }) {
            guard let owner = planner.newLayout.entity(relationship.owner), let destination = planner.newLayout.entity(relationship.destination),
                  tables.contains(owner.table), tables.contains(destination.table) else { continue }
            switch relationship.storage {
            case .foreignKey(let ordinal):
                guard tablesWithLostRows.contains(destination.table), owner.name == relationship.owner else { continue }
                let column = Self.q(owner.columns[ordinal].name)
                bookkeeping.append(Self.sql("UPDATE " + Self.q(owner.table) + " SET " + column + " = NULL WHERE " + column + " IS NOT NULL AND "
                                            + column + " NOT IN (SELECT " + id + " FROM " + Self.q(destination.table) + ")"))
            case .linkTable(let name):
                guard tablesWithLostRows.contains(owner.table) || tablesWithLostRows.contains(destination.table) else { continue }
                bookkeeping.append(Self.sql("DELETE FROM " + Self.q(name) + " WHERE owner NOT IN (SELECT " + id + " FROM " + Self.q(owner.table)
                                            + ") OR target NOT IN (SELECT " + id + " FROM " + Self.q(destination.table) + ")"))
            case .inverseForeignKey:
                continue  // its inverse is a to-one, cleared above
            }
        }
    }

    /// The row-id sequence of each table follows the table: copied to a renamed or rebuilt one,
    /// removed with a dropped one.
    private mutating func sequences(renamedInPlace: [String: String], rebuilt: [TableLayout], planner: MigrationPlanner) {
        let table = Self.q(SchemaSQL.sequenceTable)
        var pairs: [(from: String, to: String)] = renamedInPlace.filter { $0.key != $0.value }.map { ($0.key, $0.value) }
        for new in rebuilt {
            let origins = Set(new.entities.compactMap { planner.sources[$0] }.compactMap { planner.oldLayout.entity($0)?.table })
            if let origin = origins.first, origin != new.name { pairs.append((origin, new.name)) }
        }
        pairs.sort { $0.to < $1.to }
        for pair in pairs {
            bookkeeping.append(Self.sql(dialect.insertReplacing(into: table, key: "name", value: "value",
                                                                rows: "SELECT " + dialect.parameter(for: .string) + ", value FROM " + table + " WHERE name = ?"),
                                        [.text(Self.temporaryName(pair.to)), .text(pair.from)]))
        }
        let newNames = Set(planner.newTables.map(\.name))
        guard !pairs.isEmpty || planner.oldTables.contains(where: { !newNames.contains($0.name) }) else { return }
        let moved = Set(pairs.map(\.to))
        let keep = planner.newTables.map(\.name).filter { !moved.contains($0) } + pairs.map { Self.temporaryName($0.to) }
        bookkeeping.append(Self.sql("DELETE FROM " + table + " WHERE name NOT IN (" + keep.map { _ in "?" }.joined(separator: ", ") + ")",
                                    keep.map { .text($0) }))
        for pair in pairs {
            bookkeeping.append(Self.sql("UPDATE " + table + " SET name = ? WHERE name = ?", [.text(pair.to), .text(Self.temporaryName(pair.to))]))
        }
    }

    /// The store records its new version and lock.
    mutating func updateMetadata(destination: ModelVersion, tables: [String]) {
        let table = Self.q(SchemaSQL.metadataTable)
        bookkeeping.append(Self.sql("UPDATE " + table + " SET value = ? WHERE key = 'version'", [.text(destination.name)]))
        bookkeeping.append(Self.sql("UPDATE " + table + " SET value = ? WHERE key = 'lock'", [.text(destination.versionLock.metadataText)]))
    }
}
