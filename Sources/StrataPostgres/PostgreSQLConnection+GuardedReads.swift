// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import PostgresNIO
import Strata

/// Reads of a write transaction that fail without breaking it. PostgreSQL refuses every statement
/// of a transaction after one failed (SQLSTATE 25P02), so a read the app catches an error from
/// (a query PostgreSQL refuses, a statement timeout) would otherwise leave the rest of its
/// transaction unusable. Each of the app's reads in a write transaction is marked with a
/// savepoint, rolled back to when the read fails. The savepoint and its release are sent without
/// waiting for their answers (the connection sends its statements in order), so a read that
/// succeeds waits for no more round trips than before.
extension PostgreSQLConnection {
    /// The savepoint of a guarded read.
    static let readSavepoint = "strata_read"

    func beginGuardedRead() throws(StrataError) -> Bool {
        guard isInTransaction, abortedBy == nil, !isBroken else { return false }
        // Rows of a batched write still waiting go first: rolling back to the mark must keep them.
        if let pending { try pending.send() }
        sendUnanswered("SAVEPOINT " + Self.readSavepoint)
        return true
    }

    func endGuardedRead(failed: Bool) {
        guard isInTransaction, !isBroken else { return }
        if let abortedBy {
            // A serialization failure or a deadlock ends the transaction, which runs again.
            guard failed, abortedBy.conflict == nil else { return }
            do {
                try execute("ROLLBACK TO SAVEPOINT " + Self.readSavepoint)
            } catch {
                return
            }
            self.abortedBy = nil
        }
        sendUnanswered("RELEASE SAVEPOINT " + Self.readSavepoint)
    }

    /// Sends a statement that binds nothing, without waiting for its answer: the connection's
    /// next statement goes after it, and is refused if it failed.
    private func sendUnanswered(_ sql: String) {
        statementsSent += 1
        _ = connection.query(PostgresQuery(unsafeSQL: sql), logger: Self.quietLogger)
    }
}
#endif
