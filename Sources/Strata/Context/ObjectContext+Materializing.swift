/// Objects for known rows, read in batches: what a list monitor hands out, reading only the
/// objects the context does not hold already.
extension ObjectContext {
    /// This context's object for each key, in order; nil where the row is gone.
    func objects(for keys: [ObjectKey]) throws(StrataError) -> [StrataObject?] {
        var result: [StrataObject?] = keys.map { registered[$0] }
        let missing = keys.indices.filter { result[$0] == nil }
        if !missing.isEmpty {
            // Held here, so that the main context's purge cannot drop them before they are returned.
            var found: [ObjectKey: StrataObject] = [:]
            try forEachStoredRow(missing.map { keys[$0] }) { (key, plan, row) throws(StrataError) in
                if let object = try materialize(row, plan: plan, storage: key.storage) { found[key] = object }
            }
            for position in missing { result[position] = found[keys[position]] }
        }
        return result.map { $0?.deleted == true ? nil : $0 }
    }
}
