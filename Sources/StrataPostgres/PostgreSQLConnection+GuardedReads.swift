// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import PostgresNIO
import Strata

/// Reads of a write transaction that fail without breaking it. PostgreSQL refuses every statement
/// of a transaction after one failed (SQLSTATE 25P02), so a read the app catches an error from
/// (a query PostgreSQL refuses, a statement timeout) would otherwise leave the rest of its
/// transaction unusable. What a failed read goes back to costs nothing when reads succeed:
/// - a read that is the transaction's first statement needs no mark: the transaction has done
///   nothing yet (not even taken its snapshot), so after a failure it begins again;
/// - a later read is preceded by a savepoint, which a failure goes back to. The reads that follow
///   with no other statement between them share it, and it is released before the transaction's
///   next other statement (not before its commit, which ends it anyway). The savepoint and its
///   release are sent without waiting for their answers: the connection sends its statements in
///   order, and a read waits for no more answers than before.
extension PostgreSQLConnection {
    /// The savepoint of guarded reads.
    static let readSavepoint = "strata_read"

    func beginGuardedRead() throws(StrataError) -> Bool {
        guard isInTransaction, abortedBy == nil, !isBroken else { return false }
        // Rows of a batched write still waiting go first: going back must keep them.
        if let pending { try pending.send() }
        guardingRead = true
        return true
    }

    func endGuardedRead(failed: Bool) {
        defer { guardingRead = false }
        guard failed, isInTransaction, !isBroken, let abortedBy, abortedBy.conflict == nil else {
            // Succeeded, or a serialization failure or deadlock, after which the transaction runs again.
            return
        }
        do {
            if readSavepointOpen {
                try execute("ROLLBACK TO SAVEPOINT " + Self.readSavepoint)
                self.abortedBy = nil
            } else if let begin = transactionBegin {
                // No savepoint: the failed read was the transaction's first statement (any later
                // one inside a guarded read opens the savepoint first).
                try execute("ROLLBACK")
                try execute(begin)
            }
        } catch {
            // The connection failed meanwhile; the transaction's next statement says so.
        }
    }

    /// Called before each statement that waits for its answer: inside a guarded read that is not
    /// the transaction's first statement, opens the savepoint unless it is open; outside one,
    /// releases it (but for the statements that end the transaction, which release it anyway).
    func prepareToSend(_ sql: String) {
        guard isInTransaction, !Self.controlsTransactions(sql) else { return }
        if guardingRead {
            guard statementsSinceBegin > 0, !readSavepointOpen else { return }
            sendUnanswered("SAVEPOINT " + Self.readSavepoint)
            readSavepointOpen = true
        } else if readSavepointOpen {
            sendUnanswered("RELEASE SAVEPOINT " + Self.readSavepoint)
            readSavepointOpen = false
        }
    }

    /// Sends a statement that binds nothing, without waiting for its answer: the connection's
    /// next statement goes after it, and is refused if it failed.
    private func sendUnanswered(_ sql: String) {
        statementsSent += 1
        _ = connection.query(PostgresQuery(unsafeSQL: sql), logger: Self.quietLogger)
    }
}
#endif
