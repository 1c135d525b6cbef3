/// Objects for known rows, read in batches: what a list monitor hands out, reading only the
/// objects the context does not hold already.
extension ObjectContext {
    /// This context's object for each key, in order; nil where the row is gone.
    func objects(for keys: [ObjectKey]) throws(StrataError) -> [StrataObject?] {
        var result: [StrataObject?] = keys.map { registered[$0] }
        var missing: [ObjectKey: [Int]] = [:]
        for (position, key) in keys.enumerated() where result[position] == nil {
            missing[ObjectKey(storage: key.storage, table: key.table, rowID: 0), default: []].append(position)
        }
        for (group, positions) in missing {
            guard let root = core.layout.entity(core.layout.tables[Int(group.table)].root.name) else { continue }
            let ids = positions.map { keys[$0].rowID }
            // Held here, so that the main context's purge cannot drop them before they are returned.
            var found: [Int64: StrataObject] = [:]
            try forEachChunk(ids) { chunk throws(StrataError) in
                let plan = FetchPlan(entity: root, core: core, where: [Self.inList("t." + SQLFragment.quote(StoreLayout.idColumn), chunk)],
                                     orderBy: [], tweak: Tweak(), joins: [])
                let statement = try connection(for: group.storage).cachedStatement(plan.sql.text)
                statement.bind(plan.sql.arguments)
                defer { statement.reset() }
                while try statement.step() {
                    if let object = materialize(statement.row, plan: plan, storage: group.storage) { found[object.rowID] = object }
                }
            }
            for position in positions { result[position] = found[keys[position].rowID] }
        }
        return result.map { $0?.isDeleted == true ? nil : $0 }
    }
}
