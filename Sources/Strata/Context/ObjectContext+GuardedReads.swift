/// A read of the app's that fails inside a transaction leaves the transaction usable, on every
/// backend: the app may catch the error and go on reading and writing. SQLite goes on after a
/// failed statement by itself; a server that refuses the rest of a transaction after one
/// (PostgreSQL) gets a point to go back to before each such read (see
/// ``DatabaseConnection/beginGuardedRead()``). The mark is made after the transaction's pending
/// changes are written, so going back to it never takes them back.
extension ObjectContext {
    /// Runs one of the app's reads (a fetch, a count, a query). Outside a transaction, or inside
    /// another guarded read, it just runs `read`.
    func guardingReads<R, E: Error>(_ read: () throws(E) -> R) throws(E) -> R {
        guard kind == .transaction, guardedReads == nil else { return try read() }
        guardedReads = []
        defer { guardedReads = nil }
        do {
            let result = try read()
            endGuardedReads(failed: false)
            return result
        } catch {
            endGuardedReads(failed: true)
            throw error
        }
    }

    /// Marks a point on `connection` before a guarded read of `storage` first reads it.
    func guardRead(of storage: Int32, on connection: any DatabaseConnection) throws(StrataError) {
        guard let storages = guardedReads, !storages.contains(storage) else { return }
        if try connection.beginGuardedRead() { guardedReads?.insert(storage) }
    }

    private func endGuardedReads(failed: Bool) {
        for storage in guardedReads ?? [] {
            connections[storage]?.endGuardedRead(failed: failed)
        }
    }
}
