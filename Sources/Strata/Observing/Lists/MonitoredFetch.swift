/// A monitored fetch compiled once: the SQL that reads its members' ids and sort values (never
/// their other columns), and what it depends on, so that a commit costs the monitor only what
/// the commit can change.
struct MonitoredFetch {
    let storage: StorageHandle
    let entity: EntityLayout
    /// The monitored table, as commits name it.
    let table: StackCore.TableKey
    let ordering: ListOrdering
    let isSectioned: Bool
    /// Every member in order: `strata_id`, the entity code when the table is shared, then the
    /// sort values.
    let selectAll: SQLFragment
    /// The same without order or limit, for `strata_id IN (...)` appended.
    private let selectSome: SQLFragment
    /// Columns of the monitored table the conditions and sort keys read: an update that changes
    /// none of them leaves membership and order as they were.
    let dependentColumns: Set<String>
    /// Tables read through to-one relationships: a change there may move any member.
    let joinedTables: Set<Int32>
    /// A raw SQL condition or a limit/offset: any change in the storage re-reads the whole list.
    let readsAllOnChange: Bool
    private let entityNames: [Int64: String]

    init<T: StrataObject>(_ chain: FetchChainBuilder<T>, sectionBy: SectionBy<T>?, context: ObjectContext) throws(StrataError) {
        let core = context.core
        try chain.tweak.validate()
        let entity = try context.entityLayout(T.self)
        self.entity = entity
        storage = try core.storage(for: entity.name, configurations: chain.from.configurations)
        table = StackCore.TableKey(storage: storage.index, table: Int32(entity.tableIndex))
        let tableLayout = core.layout.tables[entity.tableIndex]
        var compiler = ExpressionCompiler(core: core, entity: entity)
        var conditions: [SQLFragment] = []
        for condition in chain.conditions { conditions.append(try compiler.compile(condition.expression)) }
        var sortKeys = try compiler.sortExpressions(chain.sortKeys)
        isSectioned = sectionBy != nil
        if let sectionBy {
            let expression = try compiler.sortExpression(sectionBy.path)
            // Sections follow their key's order; a first sort key on the same key sets its direction.
            let ascending = sortKeys.first.map { $0.sql == expression ? $0.ascending : true } ?? true
            if sortKeys.first?.sql == expression { sortKeys.removeFirst() }
            sortKeys.insert((expression, ascending), at: 0)
        }
        ordering = ListOrdering(ascending: sortKeys.map(\.ascending))
        let id = "t." + SQLFragment.quote(StoreLayout.idColumn)
        var columns = [id]
        if tableLayout.hasEntityColumn { columns.append("t." + SQLFragment.quote(StoreLayout.entityColumn)) }
        columns += sortKeys.map(\.sql)
        var base = SQLFragment("SELECT " + columns.joined(separator: ", ") + " FROM " + SQLFragment.quote(tableLayout.name) + " AS t")
        for join in compiler.joins { base = base + " " + join }
        let scope = FetchPlan.scope(of: entity, chain.tweak)
        let filters = FetchPlan.entityFilter(entity, scope: scope, core: core).map { [$0] + conditions } ?? conditions
        let whereClause = filters.map(\.parenthesized).joined(separator: " AND ")
        var all = filters.isEmpty ? base : base + " WHERE " + whereClause
        all = all + " ORDER BY " + (ExpressionCompiler.orderTerms(sortKeys + [(id, true)]).map(\.text)).joined(separator: ", ")
        selectAll = all + FetchPlan.limitClause(chain.tweak)
        selectSome = filters.isEmpty ? base + " WHERE " : base + " WHERE " + whereClause + " AND "
        dependentColumns = compiler.baseColumns
        joinedTables = compiler.joinedTables
        readsAllOnChange = compiler.usesRawSQL || chain.tweak.limit != nil || chain.tweak.offset != nil
        var names: [Int64: String] = [:]
        for name in scope { if let layout = core.layout.entity(name) { names[layout.entityCode ?? 0] = name } }
        entityNames = names
    }

    /// The entry of a result row, or nil for a row of another entity.
    private func entry(_ row: DatabaseRow) -> ListEntry? {
        let hasEntityColumn = entity.entityCode != nil
        guard let name = entityNames[hasEntityColumn ? row.int64(1) : 0] else { return nil }
        let first: Int32 = hasEntityColumn ? 2 : 1
        let values = (0..<Int32(ordering.ascending.count)).map { row.value(first + $0) }
        return ListEntry(key: ObjectKey(storage: storage.index, table: table.table, rowID: row.int64(0)), entityName: name, sortValues: values)
    }

    /// Every member, in order, read in the context's snapshot of the storage.
    func readAll(_ context: ObjectContext) throws(StrataError) -> ListState {
        let statement = try context.connection(for: storage.index).cachedStatement(selectAll.text)
        statement.bind(selectAll.arguments)
        defer { statement.reset() }
        var entries: [ListEntry] = []
        while try statement.step() {
            if let entry = entry(statement.row) { entries.append(entry) }
        }
        return ListState(sorted: entries, isSectioned: isSectioned, ordering: ordering)
    }

    /// Which of some rows are members now, with their sort values.
    func read(rowIDs: [Int64], _ context: ObjectContext) throws(StrataError) -> [ObjectKey: ListEntry] {
        var found: [ObjectKey: ListEntry] = [:]
        let connection = try context.connection(for: storage.index)
        try context.forEachChunk(rowIDs) { chunk throws(StrataError) in
            // Chunks are padded to a power of two with an id no row has, so few statements are prepared.
            var size = 1
            while size < chunk.count { size *= 2 }
            let padded = chunk + Array(repeating: 0, count: size - chunk.count)
            let sql = selectSome + ObjectContext.inList("t." + SQLFragment.quote(StoreLayout.idColumn), padded)
            let statement = try connection.cachedStatement(sql.text)
            statement.bind(sql.arguments)
            defer { statement.reset() }
            while try statement.step() {
                if let entry = entry(statement.row) { found[entry.key] = entry }
            }
        }
        return found
    }
}
