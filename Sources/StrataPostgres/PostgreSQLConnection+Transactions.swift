// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import PostgresNIO
import Strata

/// Transaction control: write transactions that read one snapshot or lock what they check, read-only
/// snapshots, commit and rollback, and the settings a pooler in transaction mode needs in every
/// transaction.
extension PostgreSQLConnection {
    /// Whether `sql` begins or ends a transaction.
    static func controlsTransactions(_ sql: String) -> Bool {
        sql.hasPrefix("BEGIN") || sql == "COMMIT" || sql == "ROLLBACK"
    }

    /// Sets ``transactionSettings`` in the transaction just begun, in one round trip.
    func applyTransactionSettings() throws(StrataError) {
        var bindings = PostgresBindings(capacity: transactionSettings.count * 2)
        var calls: [String] = []
        for (index, setting) in transactionSettings.enumerated() {
            bindings.append(setting.name)
            bindings.append(setting.value)
            calls.append("set_config($\(2 * index + 1), $\(2 * index + 2), true)")
        }
        let sql = "SELECT " + calls.joined(separator: ", ")
        try send(PostgresQuery(unsafeSQL: sql, binds: bindings), as: sql)
    }

    /// Keeps `value` for `name` in every transaction (sessionless), or sets it for the session.
    func set(_ name: String, to value: String) throws(StrataError) {
        guard sessionless else {
            try query("SELECT set_config($1, $2, false)", [.text(name), .text(value)])
            return
        }
        transactionSettings.removeAll { $0.name == name }
        transactionSettings.append((name, value))
    }

    /// `BEGIN ISOLATION LEVEL REPEATABLE READ`: the transaction reads one snapshot, and changing a
    /// row that a transaction committed after the snapshot fails with a serialization error
    /// (SQLSTATE 40001), after which `perform` runs its closure again. So no update is lost, and
    /// writers of every process run side by side with no lock of the whole store.
    func beginWriteTransaction() throws(StrataError) {
        try execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
    }

    /// `BEGIN ISOLATION LEVEL READ COMMITTED`, for an unsafe transaction: its check of the rows it
    /// changes locks them (`FOR UPDATE`), waiting for a concurrent writer's commit and then
    /// comparing with what that writer committed, so it reports a merge conflict instead of a
    /// serialization failure.
    func beginLockingWriteTransaction() throws(StrataError) {
        try execute("BEGIN ISOLATION LEVEL READ COMMITTED")
    }

    /// PostgreSQL's writers run side by side.
    var writesSideBySide: Bool { true }

    /// The transactions the open read transaction's snapshot sees.
    func snapshotMark() throws(StrataError) -> TransactionSnapshot {
        let sql = "SELECT CAST(pg_current_snapshot() AS text)"
        guard let value = try query(sql).rows.first?.first, let text = String(sqlValue: value),
              let snapshot = TransactionSnapshot(text: text) else {
            throw .server(code: "?", message: "the server did not return its snapshot", sql: sql)
        }
        return snapshot
    }

    /// `BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY`: every statement of the transaction
    /// reads the snapshot its first statement took, as a SQLite read transaction does.
    func beginReadTransaction() throws(StrataError) {
        try execute("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
    }

    /// `COMMIT`; on a writer of a store with replicas, then the log position the commit reached,
    /// which the replicas must replay before they serve this stack's reads.
    func commit() throws(StrataError) {
        let notice = noticeAfterCommit
        noticeAfterCommit = nil
        try execute("COMMIT")
        if let notice { announcer?.announce(notice.id, suffix: notice.suffix) }
        guard let router = commitsSeenBy else { return }
        do {
            router.mustSee(try insertPosition())
        } catch {
            // Committed, but where is unknown: reads go to the primary for a while instead.
            router.readPrimary(for: ReplicaRouter.retryInterval)
        }
    }

    /// Makes every statement wait at most `milliseconds` for a lock (a row another transaction changes), then
    /// fail with ``StrataError/storeBusy(file:milliseconds:)``.
    func setLockTimeout(milliseconds: Int) throws(StrataError) {
        try set("lock_timeout", to: String(milliseconds))
        lockTimeoutMilliseconds = milliseconds
    }

    /// `ROLLBACK`, dropping the rows of batched writes not sent yet.
    func rollback() throws(StrataError) {
        noticeAfterCommit = nil
        dropPendingRows()
        try execute("ROLLBACK")
    }
}
#endif
