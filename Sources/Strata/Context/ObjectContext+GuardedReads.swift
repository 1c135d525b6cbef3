/// A read of the app's that fails inside a transaction leaves the transaction usable, on every
/// backend: the app may catch the error and go on reading and writing. SQLite goes on after a
/// failed statement by itself; a server that refuses the rest of a transaction after one
/// (PostgreSQL) marks what a failure goes back to (see ``DatabaseConnection/beginGuardedRead()``).
/// The mark is made after the transaction's pending changes are written, and a read that writes
/// (one inside `fetchEach`'s closure) ends the guarded reads around it first, so going back never
/// takes back a write.
extension ObjectContext {
    /// Runs one of the app's reads (a fetch, a count, a query); outside a transaction, it just
    /// runs `read`. A read inside another (in `fetchEach`'s closure) that fails goes back at once,
    /// so the closure may catch its error and go on.
    func guardingReads<R, E: Error>(_ read: () throws(E) -> R) throws(E) -> R {
        guard kind == .transaction else { return try read() }
        let outermost = guardedReads == nil
        if outermost { guardedReads = [] }
        defer { if outermost { guardedReads = nil } }
        do {
            let result = try read()
            if outermost { endGuardedReads(failed: false) }
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

    /// Ends the guarded reads of every storage marked so far; the read goes on unmarked.
    func endGuardedReads(failed: Bool) {
        for storage in guardedReads ?? [] {
            connections[storage]?.endGuardedRead(failed: failed)
        }
        if guardedReads != nil { guardedReads = [] }
    }
}
