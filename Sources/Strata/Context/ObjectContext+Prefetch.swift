/// Prefetching: a relationship of many objects loaded with one query per 500 objects.
extension ObjectContext {
    static let prefetchChunkSize = 500

    /// Loads `relationship` for every object: to-one destinations are registered, so reading them
    /// costs no query; to-many relationships get their keys, in stored order.
    func prefetch(_ relationship: RelationshipLayout, of objects: [StrataObject], storage: StorageHandle) throws(StrataError) {
        guard !objects.isEmpty, let destination = core.layout.entity(relationship.destination) else { return }
        let idColumn = "t." + SQLFragment.quote(StoreLayout.idColumn)
        switch relationship.storage {
        case .foreignKey(let ordinal):
            let targets = Array(Set(objects.compactMap { $0.foreignKey(ordinal) })).sorted()
            try forEachChunk(targets) { chunk throws(StrataError) in
                let plan = FetchPlan(entity: destination, core: core, where: [Self.inList(idColumn, chunk)], orderBy: [], tweak: Tweak(), joins: [])
                try load(plan, storage: storage) { _, _ in }
            }
        case .inverseForeignKey(let column, let orderColumn):
            var groups: [Int64: [ObjectKey]] = [:]
            let owners = objects.map(\.rowID)
            guard let inverseOrdinal = destination.ordinals[relationship.inverse.name] else { return }
            try forEachChunk(owners) { chunk throws(StrataError) in
                var order = orderColumn.map { [SQLFragment("t." + SQLFragment.quote($0))] } ?? []
                order.append(SQLFragment(idColumn))
                let plan = FetchPlan(entity: destination, core: core, where: [Self.inList("t." + SQLFragment.quote(column), chunk)],
                                     orderBy: order, tweak: Tweak(), joins: [])
                try load(plan, storage: storage) { object, _ in
                    if let owner = object.foreignKey(inverseOrdinal) { groups[owner, default: []].append(object.key) }
                }
            }
            assign(groups, relationship, to: objects)
        case .linkTable(let name):
            var groups: [Int64: [ObjectKey]] = [:]
            try forEachChunk(objects.map(\.rowID)) { chunk throws(StrataError) in
                let join = SQLFragment("JOIN " + SQLFragment.quote(name) + " AS l ON l.target = " + idColumn)
                let plan = FetchPlan(entity: destination, core: core, where: [Self.inList("l.owner", chunk)],
                                     orderBy: [SQLFragment("l.owner"), SQLFragment("l.position"), SQLFragment(idColumn)], tweak: Tweak(),
                                     joins: [join], extraColumns: ["l.owner"])
                try load(plan, storage: storage) { object, row in
                    groups[row.int64(plan.extraColumnIndex), default: []].append(object.key)
                }
            }
            assign(groups, relationship, to: objects)
        }
    }

    /// Every row of a plan as a registered object, handed to `each` with its row.
    private func load(_ plan: FetchPlan, storage: StorageHandle, _ each: (StrataObject, DatabaseRow) -> Void) throws(StrataError) {
        let connection = try readingConnection(storage, tweak: Tweak())
        let statement = try connection.cachedStatement(plan.sql.text)
        statement.bind(plan.sql.arguments)
        defer { statement.reset() }
        while try statement.step() {
            let row = statement.row
            if let object = try materialize(row, plan: plan, storage: storage.index), !object.deleted { each(object, row) }
        }
    }

    private func assign(_ groups: [Int64: [ObjectKey]], _ relationship: RelationshipLayout, to objects: [StrataObject]) {
        for object in objects where object.toManyKeys?[relationship.index] == nil {
            var loaded = object.toManyKeys ?? [:]
            loaded[relationship.index] = groups[object.rowID] ?? []
            object.toManyKeys = loaded
        }
    }

    func forEachChunk(_ ids: [Int64], _ body: ([Int64]) throws(StrataError) -> Void) throws(StrataError) {
        var start = 0
        while start < ids.count {
            try body(Array(ids[start..<min(start + Self.prefetchChunkSize, ids.count)]))
            start += Self.prefetchChunkSize
        }
    }

    /// `column IN (?, ?, ...)` with every id bound.
    static func inList(_ column: String, _ ids: [Int64]) -> SQLFragment {
        SQLFragment(column + " IN (" + Array(repeating: "?", count: ids.count).joined(separator: ", ") + ")", ids.map { .integer($0) })
    }
}
