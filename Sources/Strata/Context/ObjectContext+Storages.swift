/// Fetching an entity stored in several configurations (`From<T>()` when more than one added
/// storage holds `T`): each storage is read with the same SQL, and the results are merged in the
/// fetch's order, with SQLite's ordering rules, before the limit and offset apply.
extension ObjectContext {
    /// The objects of a fetch over several storages, in order.
    func fetchAcross<T: StrataObject>(_ chain: FetchChainBuilder<T>, layout: EntityLayout,
                                      _ storages: [StorageHandle]) throws(StrataError) -> [StrataObject] {
        // Each storage returns its first `offset + limit` objects; the merge then skips and cuts.
        var each = chain.tweak
        each.offset = nil
        if let limit = chain.tweak.limit { each.limit = limit + (chain.tweak.offset ?? 0) }
        let (plan, sortKeys) = try plan(chain, layout: layout, tweak: each, selectingSortValues: true)
        var found: [(entry: ListEntry, object: StrataObject)] = []
        for storage in storages {
            let connection = try readingConnection(storage, tweak: chain.tweak)
            let statement = try connection.cachedStatement(objectFetchSQL(plan, tweak: chain.tweak, on: connection))
            statement.bind(plan.sql.arguments)
            defer { statement.reset() }
            while try statement.step() {
                let row = statement.row
                guard let object = try materialize(row, plan: plan, storage: storage.index) else { continue }
                let values = (0..<Int32(sortKeys.count)).map { row.value(plan.extraColumnIndex + $0) }
                found.append((ListEntry(key: object.key, entityName: layout.name, sortValues: values), object))
            }
        }
        if !sortKeys.isEmpty {
            let ordering = ListOrdering(ascending: sortKeys.map(\.ascending))
            found.sort { ordering.compare($0.entry, $1.entry) < 0 }
        }
        let start = min(chain.tweak.offset ?? 0, found.count)
        let end = chain.tweak.limit.map { min(start + max($0, 0), found.count) } ?? found.count
        return found[start..<end].map(\.object)
    }
}
