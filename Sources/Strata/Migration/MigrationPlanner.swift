/// Plans one migration step for one storage from the two versions' descriptors and the
/// destination's migration hints.
///
/// Every table of the destination is either created, kept in place (columns added, renamed or
/// dropped with `ALTER TABLE`, which leaves the rows where they are: adding a column to a million
/// rows costs nothing per row), or rebuilt the way SQLite documents for changes `ALTER TABLE` cannot
/// make: a new table under a temporary name, filled from the old one, the old one dropped, the new
/// one renamed. Row ids never change, so foreign keys and link rows stay valid.
public struct MigrationPlanner {
    let source: ModelVersion
    let destination: ModelVersion
    let configuration: String
    /// The SQL the plan is written in.
    let dialect: SQLDialect
    let hints: MigrationDescription?
    let customEntities: Set<String>
    let oldLayout: StoreLayout
    let newLayout: StoreLayout
    /// Old tables (of the storage's configuration) and new tables.
    let oldTables: [TableLayout]
    let newTables: [TableLayout]
    /// New entity name to the old entity its rows come from.
    let sources: [String: String]

    /// A planner for the step from `source` to `destination` of the storage holding `configuration`.
    /// `customEntities` are the destination entities the app's custom steps produce. The plan's
    /// SQL is written in `dialect`.
    public init(from source: ModelVersion, to destination: ModelVersion, configuration: String = "Default", dialect: SQLDialect = .sqlite) {
        self.source = source
        self.destination = destination
        self.configuration = configuration
        self.dialect = dialect
        let hints = destination.migration(from: source.name)
        self.hints = hints
        self.customEntities = Set(hints?.entities.filter { $0.isCustom && !$0.isDeleted }.map(\.name) ?? [])
        oldLayout = StoreLayout(version: source, types: [:])
        newLayout = StoreLayout(version: destination, types: [:])
        let oldEntities = source.entities(ofConfiguration: configuration) ?? []
        let newEntities = destination.entities(ofConfiguration: configuration) ?? []
        oldTables = oldLayout.tables.filter { $0.entities.contains(where: oldEntities.contains) }
        newTables = newLayout.tables.filter { $0.entities.contains(where: newEntities.contains) }
        var sources: [String: String] = [:]
        for entity in destination.entities where newEntities.contains(entity.name) {
            let name = hints?.hint(forEntity: entity.name)?.renamedFrom ?? entity.name
            guard oldEntities.contains(name), source.entity(named: name) != nil, hints?.deletes(name) != true else { continue }
            sources[entity.name] = name
        }
        self.sources = sources
    }

    /// The step's operations, or the reason it cannot be inferred.
    public func plan() throws(MigrationPlanningError) -> MigrationStepPlan {
        var builder = PlanBuilder(dialect: dialect)
        var inPlace: [String: String] = [:]  // old table → new table
        var rebuilt: [(new: TableLayout, olds: [TableLayout])] = []
        for table in newTables {
            let olds = origins(of: table)
            if olds.count == 1, let old = olds.first, !inPlace.keys.contains(old.name), !splits(old),
               case let mapping = try tableMapping(table, from: old), mapping.canAlterInPlace {
                inPlace[old.name] = table.name
                builder.alter(mapping)
            } else {
                rebuilt.append((table, olds))
            }
        }
        var moved: [PlanBuilder.MovedRows] = []
        for (table, olds) in rebuilt {
            var mappings: [(TableMapping, String?)] = []
            for (index, old) in olds.enumerated() {
                var offset: String?
                if index > 0 {
                    // The rows of entities joining this hierarchy take new ids.
                    let entities = table.entities.compactMap { sources[$0] }.filter { oldLayout.entity($0)?.table == old.name }
                    let codes = old.hasEntityColumn ? entities.compactMap { entity in old.entities.firstIndex(of: entity).map { Int64($0 + 1) } } : nil
                    let group = builder.moveRows(of: old.name, into: table.name, codes: codes, entities: Set(entities),
                                                 after: olds[index - 1].name, first: olds[0].name, isSecond: index == 1)
                    moved.append(group)
                    offset = group.offset
                }
                mappings.append((try tableMapping(table, from: old), offset))
            }
            builder.rebuild(table, mappings: mappings, definition: SchemaSQL.table(table, layout: newLayout, dialect: dialect), layout: newLayout)
        }
        let dropped = oldTables.map(\.name).filter { inPlace[$0] == nil }
        builder.finish(droppedTables: dropped, renamedInPlace: inPlace, rebuilt: rebuilt.map(\.new), planner: self)
        try planLinkTables(&builder)
        builder.shiftReferences(to: moved, planner: self)
        builder.cleanUpDanglingReferences(planner: self)
        builder.updateMetadata(destination: destination, tables: newTables.map(\.name))
        return MigrationStepPlan(sourceVersion: source.name, destinationVersion: destination.name, operations: builder.operations, notes: builder.notes)
    }

    /// The old tables a new table's rows come from: the one holding its root's rows first (those
    /// keep their ids), then the others (an entity moving into the hierarchy), by name.
    private func origins(of table: TableLayout) -> [TableLayout] {
        let names = Set(table.entities.compactMap { sources[$0] }.compactMap { oldLayout.entity($0)?.table })
        let first = sources[table.root.name].flatMap { oldLayout.entity($0)?.table } ?? (names.contains(table.name) ? table.name : names.min())
        let ordered = (first.map { [$0] } ?? []) + names.filter { $0 != first }.sorted()
        return ordered.compactMap { name in oldTables.first { $0.name == name } }
    }

    /// Whether the rows of an old table go to more than one new table: then none keeps it in place.
    private func splits(_ old: TableLayout) -> Bool {
        let destinations = Set(sources.filter { old.entities.contains($0.value) }.compactMap { newLayout.entity($0.key)?.table })
        return destinations.count > 1
    }

    /// The name a property of a new entity had in the old one.
    func oldPropertyName(_ property: String, ofEntity entity: String) -> String {
        hints?.hint(forEntity: entity)?.renamedProperties[property] ?? property
    }

    /// How each column of `table` is filled from `old`.
    func tableMapping(_ table: TableLayout, from old: TableLayout) throws(MigrationPlanningError) -> TableMapping {
        try TableMapping(table, from: old, planner: self)
    }

    /// Link tables of many-to-many relationships: kept, renamed, created or dropped.
    private func planLinkTables(_ builder: inout PlanBuilder) throws(MigrationPlanningError) {
        let oldNames = Set(SchemaSQL.linkTables(oldLayout, tables: Set(oldTables.map(\.name))))
        var kept: Set<String> = []
        var renames: [(String, String)] = []
        var created: [String] = []
        var carried: [(table: String, pairs: String)] = []
        for name in SchemaSQL.linkTables(newLayout, tables: Set(newTables.map(\.name))) {
            guard let relationship = newLayout.relationships.values.flatMap({ $0 }).first(where: {
                if case .linkTable(name) = $0.storage { return true } else { return false }
            }) else { continue }
            let origin = sources[relationship.owner].flatMap { oldOwner in
                oldLayout.relationships[oldOwner]?.first { $0.name == oldPropertyName(relationship.name, ofEntity: relationship.owner) }
            }
            switch origin?.storage {
            case .linkTable(let oldName)? where oldNames.contains(oldName) && !kept.contains(oldName):
                kept.insert(oldName)
                if oldName != name { renames.append((oldName, name)) }
            case nil, .linkTable?:
                created.append(name)
            case .foreignKey?, .inverseForeignKey?:
                // The side was stored in a foreign key: its links become the new table's rows.
                created.append(name)
                if let origin, let pairs = linkPairs(of: origin) { carried.append((name, pairs)) }
            }
        }
        builder.linkTables(dropped: oldNames.subtracting(kept).sorted(), renamed: renames, created: created)
        builder.carryLinks(carried)
    }
}

extension MigrationPlanner {
    /// A query over the source version's tables giving one row (owner, target, position) per link
    /// of a relationship side stored in a foreign key, as the owner sees it.
    func linkPairs(of relationship: RelationshipLayout) -> String? {
        let q = SQLFragment.quote
        let id = q(StoreLayout.idColumn)
        switch relationship.storage {
        case .foreignKey:
            guard let owner = oldLayout.entity(relationship.owner), let column = owner.column(forProperty: relationship.name) else { return nil }
            return "SELECT " + id + ", " + q(column.name) + ", 0 FROM " + q(owner.table) + " WHERE " + q(column.name) + " IS NOT NULL"
                + codeFilter(owner, layout: oldLayout)
        case .inverseForeignKey(let column, let order):
            guard let destination = oldLayout.entity(relationship.destination) else { return nil }
            return "SELECT " + q(column) + ", " + id + ", " + (order.map { "COALESCE(" + q($0) + ", 0)" } ?? "0") + " FROM " + q(destination.table)
                + " WHERE " + q(column) + " IS NOT NULL" + codeFilter(destination, layout: oldLayout)
        case .linkTable(let name):
            return "SELECT owner, target, position FROM " + q(name)
        }
    }

    /// ` AND "strata_entity" IN (...)`: the rows of an entity and its subentities in a shared table.
    private func codeFilter(_ entity: EntityLayout, layout: StoreLayout) -> String {
        guard let table = layout.tables.first(where: { $0.name == entity.table }), table.hasEntityColumn else { return "" }
        let codes = entity.subtree.compactMap { name in table.entities.firstIndex(of: name).map { String($0 + 1) } }
        return " AND " + SQLFragment.quote(StoreLayout.entityColumn) + " IN (" + codes.joined(separator: ", ") + ")"
    }
}

/// Why a step cannot be inferred: the text names the entity or property and what to do.
public struct MigrationPlanningError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The reason.
    public let reason: String

    init(_ reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
