/// Queries: SELECT of attributes and aggregates, optionally grouped, with typed results.
extension ObjectContext {
    /// Runs a query and decodes each row's terms in order.
    func query<T: StrataObject, R>(_ builder: QueryChainBuilder<T, R>) throws(StrataError) -> [[(key: String, value: (any QueryableAttributeType)?)]] {
        let (rows, scope) = try rawQuery(builder)
        return rows.map { row in zip(builder.terms, row).map { term, value in (term.key, term.decode(value, scope)) } }
    }

    /// Runs a query: each row's values as SQLite returned them, and where it ran.
    private func rawQuery<T: StrataObject, R>(_ builder: QueryChainBuilder<T, R>) throws(StrataError) -> (rows: [[SQLValue]], scope: QueryScope) {
        let (sql, storage, layout) = try querySQL(builder)
        let connection = try readingConnection(storage, tweak: builder.fetch.tweak)
        let statement = try connection.cachedStatement(sql.text)
        statement.bind(sql.arguments)
        defer { statement.reset() }
        let scope = QueryScope(storage: storage.index, table: Int32(layout.tableIndex), entityName: layout.name)
        var rows: [[SQLValue]] = []
        while try statement.step() {
            let row = statement.row
            rows.append((0..<Int32(builder.terms.count)).map { row.value($0) })
        }
        return (rows, scope)
    }

    /// A query's SQL in the dialect of the storage that holds its entity, that storage, and the
    /// entity's layout.
    func querySQL<T: StrataObject, R>(_ builder: QueryChainBuilder<T, R>) throws(StrataError)
        -> (sql: SQLFragment, storage: StorageHandle, layout: EntityLayout) {
        guard !builder.terms.isEmpty else { throw .invalidQuery("a query needs at least one selected term") }
        try checkPerObjectTerms(builder.terms, grouped: !builder.groupBy.isEmpty)
        let layout = try entityLayout(T.self)
        let storage = try core.storage(for: layout.name, configurations: builder.fetch.from.configurations)
        var compiler = ExpressionCompiler(core: core, entity: layout)
        var columns: [String] = []
        for term in builder.terms {
            columns.append(try compile(term, compiler: &compiler))
        }
        var conditions: [SQLFragment] = []
        for condition in builder.fetch.conditions { conditions.append(try compiler.compile(condition.expression)) }
        let table = core.layout.tables[layout.tableIndex]
        try builder.fetch.tweak.validate()
        if let filter = FetchPlan.entityFilter(layout, scope: FetchPlan.scope(of: layout, builder.fetch.tweak), core: core) { conditions.insert(filter, at: 0) }
        var groups: [String] = []
        for group in builder.groupBy {
            switch group {
            case .name(let path): groups.append(try compiler.column(for: path).sql)
            case .invalid(let expression): _ = try compiler.compile(expression)
            }
        }
        let distinct = builder.fetch.tweak.returnsDistinctResults ? "DISTINCT " : ""
        let sortKeys = try compiler.sortExpressions(builder.fetch.sortKeys)
        let order = ExpressionCompiler.orderTerms(Self.sortKeys(sortKeys, ordering: builder.terms, columns: columns, groups: groups,
                                                                distinct: !distinct.isEmpty, dialect: compiler.dialect))
        var sql = SQLFragment("SELECT " + distinct + columns.joined(separator: ", ") + " FROM " + SQLFragment.quote(table.name) + " AS t")
        for join in compiler.joins { sql = sql + " " + join }
        if !conditions.isEmpty { sql = sql + " WHERE " + conditions.map(\.parenthesized).joined(separator: " AND ") }
        if !groups.isEmpty { sql = sql + " GROUP BY " + groups.joined(separator: ", ") }
        if !order.isEmpty { sql = sql + " ORDER BY " + order.joined(separator: ", ") }
        sql = sql + FetchPlan.limitClause(builder.fetch.tweak)
        return (sql, storage, layout)
    }

    /// The sort keys that can order a query's rows. When the query aggregates (a term such as
    /// `.average(\.age)`, or `groupBy`), a row is a group, not an object: a key orders the rows
    /// only if it is a grouped attribute, and the others (which SQLite would take from an
    /// arbitrary object of each group, and PostgreSQL refuses) are left out, on every backend.
    /// An aggregate without `groupBy` gives one row, which no key orders. With distinct results,
    /// a key orders the rows only if it is selected.
    static func sortKeys<T: StrataObject>(_ keys: [(sql: String, ascending: Bool)], ordering terms: [SelectTerm<T>], columns: [String],
                                          groups: [String], distinct: Bool, dialect: SQLDialect) -> [(sql: String, ascending: Bool)] {
        let aggregates = !groups.isEmpty || terms.contains(where: \.aggregatesTheFetch)
        guard aggregates || distinct else { return keys }
        // A decimal column is ordered by its numeric value (see `sortExpression`).
        let rowValues = Set((aggregates ? groups : columns).flatMap { [$0, dialect.decimalSortKey($0)] })
        return keys.filter { rowValues.contains($0.sql) }
    }

    private func compile<T: StrataObject>(_ term: SelectTerm<T>, compiler: inout ExpressionCompiler) throws(StrataError) -> String {
        if term.function == .objectID { return "t." + SQLFragment.quote(StoreLayout.idColumn) }
        if let member = term.member { return try compilePerObject(term, member: member, compiler: &compiler) }
        guard let path = term.path else { throw .invalidQuery("'\(term.key)' selects no attribute") }
        let column: (sql: String, attribute: AttributeDescription?)
        switch path {
        case .name(let name): column = try compiler.column(for: name)
        case .invalid(let expression):
            _ = try compiler.compile(expression)
            throw .invalidQuery("'\(term.key)' selects no attribute")
        }
        let type = column.attribute?.type
        switch term.function {
        case .attribute: return column.sql
        case .average: return compiler.dialect.aggregate("avg", column.sql, of: type)
        case .count: return "count(" + column.sql + ")"
        case .maximum: return compiler.dialect.aggregate("max", column.sql, of: type)
        case .minimum: return compiler.dialect.aggregate("min", column.sql, of: type)
        case .sum: return compiler.dialect.aggregate("sum", column.sql, of: type)
        case .objectID: return "t." + SQLFragment.quote(StoreLayout.idColumn)
        }
    }

    /// The first row's first value, as `R` when the value converts to it (see `QueryConversion`).
    func queryValue<T: StrataObject, R: QueryableAttributeType>(_ builder: QueryChainBuilder<T, R>) throws(StrataError) -> R? {
        let (rows, scope) = try rawQuery(builder.tweak { $0.limit = 1 })
        guard let value = rows.first?.first, let term = builder.terms.first else { return nil }
        if term.function == .objectID { return term.decode(value, scope) as? R }
        return QueryConversion.value(value, kind: term.kind, as: R.self)
    }

    /// Every row as a dictionary of its non-nil values.
    func queryAttributes<T: StrataObject, R>(_ builder: QueryChainBuilder<T, R>) throws(StrataError) -> [QueryAttributes] {
        try query(builder).map { row in
            var attributes: QueryAttributes = [:]
            for (key, value) in row { if let value { attributes[key] = value } }
            return attributes
        }
    }
}

extension DataStack {
    /// The first value a query finds, as `R`.
    @MainActor
    public func queryValue<T: StrataObject, R: QueryableAttributeType>(_ query: QueryChainBuilder<T, R>) throws(StrataError) -> R? {
        try measuredRead { () throws(StrataError) in try main.context.queryValue(query) }
    }

    /// Every row a query finds, each as keys and typed values.
    @MainActor
    public func queryAttributes<T: StrataObject, R>(_ query: QueryChainBuilder<T, R>) throws(StrataError) -> [QueryAttributes] {
        try measuredRead { () throws(StrataError) in try main.context.queryAttributes(query) }
    }
}
