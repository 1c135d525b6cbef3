/// Fetching: SQL from clauses, rows into registered objects.
extension ObjectContext {
    /// The entity layout of a class, or an error naming it.
    func entityLayout<T: StrataObject>(_ type: T.Type) throws(StrataError) -> EntityLayout {
        guard let layout = core.layout.entity(T.entityName) else {
            throw .invalidQuery("'\(T.entityName)' is not an entity of model '\(core.history.modelName)' version '\(core.history.currentVersion.name)'")
        }
        return layout
    }

    /// The entity a fetch reads and the storages it reads it from: the named configuration's, or
    /// every storage that holds it.
    func source<T: StrataObject>(of chain: FetchChainBuilder<T>) throws(StrataError) -> (layout: EntityLayout, storages: [StorageHandle]) {
        let layout = try entityLayout(T.self)
        return (layout, try core.storages(for: layout.name, configurations: chain.from.configurations))
    }

    /// The SQL of a fetch chain (the same for every storage). `tweak` replaces the chain's; with
    /// `selectingSortValues` each sort key's value is selected after the columns, for merging.
    func plan<T: StrataObject>(_ chain: FetchChainBuilder<T>, layout: EntityLayout, tweak: Tweak? = nil,
                               selectingSortValues: Bool = false) throws(StrataError) -> (plan: FetchPlan, sortKeys: [(sql: String, ascending: Bool)]) {
        try chain.tweak.validate()
        var compiler = ExpressionCompiler(core: core, entity: layout)
        var conditions: [SQLFragment] = []
        for condition in chain.conditions { conditions.append(try compiler.compile(condition.expression)) }
        let sortKeys = try compiler.sortExpressions(chain.sortKeys)
        let plan = FetchPlan(entity: layout, core: core, where: conditions, orderBy: ExpressionCompiler.orderTerms(sortKeys),
                             tweak: tweak ?? chain.tweak, joins: compiler.joins, extraColumns: selectingSortValues ? sortKeys.map(\.sql) : [])
        for kind in plan.kinds where !(kind.layout.type is T.Type) {
            throw .invalidQuery("the class of '\(kind.layout.name)' is not a subclass of \(T.self)")
        }
        return (plan, sortKeys)
    }

    /// The connection a fetch reads: in a transaction, pending changes are written first unless
    /// the tweak asks for committed data only.
    /// The SQL of a fetch of objects through `connection`: locking the rows it reads when this
    /// transaction locks what it reads and the fetch runs inside its write transaction.
    func objectFetchSQL(_ plan: FetchPlan, tweak: Tweak, on connection: any DatabaseConnection) -> String {
        guard locksRowsItReads, kind == .transaction, tweak.includesPendingChanges else { return plan.sql.text }
        return plan.sql.text + connection.dialect.lockingRows
    }

    func readingConnection(_ storage: StorageHandle, tweak: Tweak) throws(StrataError) -> any DatabaseConnection {
        guard kind == .transaction else { return try connection(for: storage.index) }
        guard tweak.includesPendingChanges else { return try committedConnection(for: storage) }
        try flush()
        let connection = try connection(for: storage.index)
        try guardRead(of: storage.index, on: connection)
        return connection
    }

    /// Runs a fetch and returns its objects, reusing registered ones.
    func fetch<T: StrataObject>(_ chain: FetchChainBuilder<T>) throws(StrataError) -> [T] {
        let (layout, storages) = try source(of: chain)
        guard storages.count == 1 else {
            let objects = try fetchAcross(chain, layout: layout, storages)
            for storage in storages { try prefetch(chain, of: objects.filter { $0.key.storage == storage.index }, entity: layout, storage: storage) }
            return unsafeBitCast(objects, to: [T].self)
        }
        let plan = try plan(chain, layout: layout).plan
        let objects = try run(plan, storage: storages[0], tweak: chain.tweak)
        try prefetch(chain, of: objects, entity: layout, storage: storages[0])
        // `plan` checked that every kind of row it can return is a `T`, and arrays of class
        // references share one layout, so the array is reinterpreted rather than copied.
        return unsafeBitCast(objects, to: [T].self)
    }

    /// Loads the relationships a fetch asks to prefetch, for its objects of one storage.
    private func prefetch<T: StrataObject>(_ chain: FetchChainBuilder<T>, of objects: [StrataObject], entity: EntityLayout,
                                           storage: StorageHandle) throws(StrataError) {
        for path in chain.prefetches {
            guard case .name(let name) = path else {
                if case .invalid(let expression) = path { throw Self.invalid(expression) }
                continue
            }
            guard let relationship = core.layout.relationships[entity.name]?.first(where: { $0.name == name }) else {
                throw .invalidQuery("'\(entity.name).\(name)' is not a relationship, so it cannot be prefetched")
            }
            try prefetch(relationship, of: objects, storage: storage)
        }
    }

    /// The objects of a planned fetch.
    private func run(_ plan: FetchPlan, storage: StorageHandle, tweak: Tweak) throws(StrataError) -> [StrataObject] {
        let connection = try readingConnection(storage, tweak: tweak)
        let statement = try connection.cachedStatement(objectFetchSQL(plan, tweak: tweak, on: connection))
        statement.bind(plan.sql.arguments)
        // A SQLite statement is read through its own type, so that stepping and reading each row
        // are direct calls rather than calls through the protocol.
        let result = if let sqlite = statement as? SQLiteStatement {
            try objects(of: sqlite, plan: plan, storage: storage.index, limit: tweak.limit)
        } else {
            try objects(of: statement, plan: plan, storage: storage.index, limit: tweak.limit)
        }
        statement.reset()
        // The main context drops what only its map holds before the batch joins it: the batch's
        // objects are all held by `result`, so purging after would only hash them into the map's
        // table to find them still held (23M of a 100,000-row fetch's 337M instructions).
        if kind == .main, registered.countUpperBound + result.count > purgeThreshold { purge() }
        // Objects are registered after the loop, in one batch: a row appears at most once in a
        // fetch, and the registry then grows once instead of rehashing as it fills (registering
        // an object that was already there just finds it again).
        registered.insert(result)
        try throwReadFailures(forgetting: true)
        return result
    }

    /// The objects of the rows a statement steps through: registered ones where the context has
    /// them, new ones read from the row otherwise. `limit` (the fetch's, when it has one) sizes
    /// the first buffer.
    @inline(__always)
    private func objects<Statement: DatabaseStatement>(of statement: Statement, plan: FetchPlan, storage: Int32, limit: Int?) throws(StrataError) -> [StrataObject] {
        var result = ObjectCollector(limit: limit)
        let hadObjects = !registered.isEmpty
        if !plan.hasEntityColumn, let single = plan.kinds.first {
            // One kind of row: its column map and home are taken once, not per row.
            let home = home(single.layout, storage: storage)
            try single.map.withUnsafeBufferPointer { (map) throws(StrataError) in
                while try statement.step() {
                    let row = statement.row
                    let key = ObjectKey(storage: storage, table: single.table, rowID: row.int64(0))
                    if hadObjects, let existing = registered[key] {
                        result.append(existing)
                        continue
                    }
                    result.append(read(row, map: map, rowID: key.rowID, home: home))
                }
            }
        } else {
            while try statement.step() {
                let row = statement.row
                guard let kind = plan.kind(of: row) else { continue }
                let key = ObjectKey(storage: storage, table: kind.table, rowID: row.int64(0))
                if hadObjects, let existing = registered[key] {
                    result.append(existing)
                    continue
                }
                result.append(read(row, kind: kind, key: key))
            }
        }
        return result.finish()
    }

    /// The error an invalid key-path expression stands for.
    static func invalid(_ expression: WhereExpression) -> StrataError {
        if case .invalid(let reason) = expression { return .invalidQuery(reason) }
        return .invalidQuery("not a property path")
    }

    /// The IDs of a fetch's objects, without creating objects (over several storages, the
    /// objects are read to merge their order).
    func fetchIDs<T: StrataObject>(_ chain: FetchChainBuilder<T>) throws(StrataError) -> [ObjectID<T>] {
        let (layout, storages) = try source(of: chain)
        guard storages.count == 1 else {
            return try fetchAcross(chain, layout: layout, storages).map { ObjectID(key: $0.key, entityName: type(of: $0).entityName) }
        }
        let plan = try plan(chain, layout: layout).plan
        let connection = try readingConnection(storages[0], tweak: chain.tweak)
        return try keys(of: plan, in: storages[0], statement: connection.cachedStatement(plan.sql.text)).map { key, entity in
            ObjectID(key: key, entityName: entity)
        }
    }

    /// The key and entity of each row a planned fetch finds, read through `statement` (the plan's
    /// SQL on the storage's reading connection), without making objects.
    func keys(of plan: FetchPlan, in storage: StorageHandle, statement: any DatabaseStatement) throws(StrataError) -> [(ObjectKey, String)] {
        statement.bind(plan.sql.arguments)
        defer { statement.reset() }
        var result: [(ObjectKey, String)] = []
        while try statement.step() {
            let row = statement.row
            guard let kind = plan.kind(of: row) else { continue }
            result.append((ObjectKey(storage: storage.index, table: kind.table, rowID: row.int64(0)), kind.layout.name))
        }
        return result
    }

    /// How many objects a fetch would return.
    func count<T: StrataObject>(_ chain: FetchChainBuilder<T>) throws(StrataError) -> Int {
        let (layout, storages) = try source(of: chain)
        if storages.count > 1, chain.tweak.limit != nil || chain.tweak.offset != nil {
            return try fetchAcross(chain, layout: layout, storages).count
        }
        let plan = try plan(chain, layout: layout).plan
        var total = 0
        for storage in storages { total += try count(plan, tweak: chain.tweak, in: storage) }
        return total
    }

    /// How many rows a planned fetch finds in one storage.
    private func count(_ plan: FetchPlan, tweak: Tweak, in storage: StorageHandle) throws(StrataError) -> Int {
        let connection = try readingConnection(storage, tweak: tweak)
        let statement = try connection.cachedStatement("SELECT count(*) FROM (" + plan.sql.text + ") AS counted")
        statement.bind(plan.sql.arguments)
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        return Int(statement.row.int64(0))
    }

    /// A new object of this context, read from a row.
    @inline(__always)
    private func read(_ row: DatabaseRow, kind: FetchPlan.Kind, key: ObjectKey) -> StrataObject {
        let home = home(kind.layout, storage: key.storage)
        return kind.map.withUnsafeBufferPointer { map in read(row, map: map, rowID: key.rowID, home: home) }
    }

    /// A new object of a home's entity read from a row through a column map.
    @inline(__always)
    private func read(_ row: DatabaseRow, map: UnsafeBufferPointer<Int32>, rowID: Int64, home: ObjectHome) -> StrataObject {
        let object = home.layout.type.init()
        adopt(object, rowID: rowID, home: home)
        object.isWritten = true
        RowReader.reading(row, map: map) { object.readColumns(&$0) }
        return object
    }

    /// The registered object of a row, or a new one read from it and registered.
    /// A row whose `coder: custom` value does not decode fails with `decodingFailed`.
    func materialize(_ row: DatabaseRow, plan: FetchPlan, storage: Int32) throws(StrataError) -> StrataObject? {
        guard let kind = plan.kind(of: row) else { return nil }
        let key = ObjectKey(storage: storage, table: kind.table, rowID: row.int64(0))
        let object = registered.object(for: key) { read(row, kind: kind, key: key) }
        try throwReadFailures(forgetting: true)
        if self.kind == .main, registered.countUpperBound > purgeThreshold { purge() }
        return object
    }

    /// This context's object for a key, fetched by id when not registered; nil when the row is gone.
    func existingObject(_ key: ObjectKey, entityName: String) throws(StrataError) -> StrataObject? {
        var key = key
        if key.isDetached {
            guard let attached = attach(key, entityName: entityName) else { return nil }
            key = attached
        }
        if let object = registered[key] { return object.deleted ? nil : object }
        guard key.storage >= 0, let layout = core.layout.entity(entityName) else { return nil }
        let root = core.layout.entity(core.layout.tables[layout.tableIndex].root.name) ?? layout
        let plan = FetchPlan(entity: root, core: core,
                             where: [SQLFragment("t." + SQLFragment.quote(StoreLayout.idColumn) + " = ?", [.integer(key.rowID)])],
                             orderBy: [], tweak: Tweak(), joins: [])
        if kind == .transaction { try flush() }
        let connection = try connection(for: key.storage)
        let statement = try connection.cachedStatement(objectFetchSQL(plan, tweak: Tweak(), on: connection))
        statement.bind(plan.sql.arguments)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return try materialize(statement.row, plan: plan, storage: key.storage)
    }

    /// A key made from a row id alone, placed in the one storage that holds its entity; nil when
    /// the stack has no such entity or several storages hold it.
    private func attach(_ key: ObjectKey, entityName: String) -> ObjectKey? {
        guard let layout = core.layout.entity(entityName) else { return nil }
        let holding = core.storages.filter { $0.entities.contains(entityName) }
        guard holding.count == 1 else { return nil }
        return ObjectKey(storage: holding[0].index, table: Int32(layout.tableIndex), rowID: key.rowID)
    }
}
