// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import NIOCore
import PostgresNIO
import Strata

/// Commit notices: a write transaction marks its commit with its transaction id, and listeners on other
/// connections hear of it through `NOTIFY`.
extension PostgreSQLConnection {
    /// The transaction's id (assigned by its first write); when the store notifies, the notice
    /// that ``commit()`` hands to the ``announcer`` once the transaction has committed (the id,
    /// and the `tables` it changed; see ``CommitNotice``). Rows of a batched write still waiting go in the same
    /// statement (`INSERT ... RETURNING` the id), so a one-object transaction waits for three round
    /// trips: `BEGIN`, its row with this mark, `COMMIT`.
    ///
    /// The notification is not sent inside the transaction: PostgreSQL holds a lock of the whole
    /// database from the commit of a transaction that sent one until that commit is on disk, so
    /// writers that notified as they committed would commit one at a time, each waiting for the
    /// previous one's disk write.
    func markCommit(tables: [String]?) throws(StrataError) -> Int64 {
        let expression = "CAST(CAST(pg_current_xact_id() AS text) AS bigint)"
        let select = "SELECT " + expression
        var fused: Result?
        if let pending, !isBroken { fused = try pending.send(returning: expression) }
        let result: Result
        if let fused { result = fused } else { result = try query(select) }
        guard let value = result.rows.first?.first, let mark = Int64(sqlValue: value) else {
            throw .server(code: "?", message: "the server did not return the transaction's id", sql: select)
        }
        if announcer != nil { noticeAfterCommit = (mark, CommitNotice.suffix(tables: tables)) }
        return mark
    }

    /// The channel Strata's writers notify when they commit.
    static let commitChannel = "strata_commits"

    /// Listens on ``commitChannel``: `heard` runs (on an event loop) for every notification, with
    /// what it says (nil when the payload is not a commit notice), and `closed` once, when the
    /// connection closes (the notifications sent from then on are lost).
    func listenForCommits(_ heard: @escaping @Sendable (CommitNotice?) -> Void, closed: @escaping @Sendable () -> Void) throws(StrataError) {
        connection.addListener(channel: Self.commitChannel) { _, notification in heard(CommitNotice(payload: notification.payload)) }
        connection.closeFuture.whenComplete { _ in closed() }
        try execute("LISTEN " + Self.commitChannel)
    }

    /// Sends a notification of commits to ``commitChannel``'s listeners (see ``CommitNotice``):
    /// `first`, the id of its first commit, then the notifying transaction's own id, then `rest`.
    /// The statement is a transaction of its own, which writes nothing to disk; its answer is not
    /// waited for, and the connection's next statement goes after it. The future completes with
    /// the answer, or the failure.
    @discardableResult
    func sendCommitNotice(_ first: Int64, rest: String) -> EventLoopFuture<Void> {
        guard !isBroken else { return connection.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel) }
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(String(first))
        bindings.append(rest)
        statementsSent += 1
        // The notifying transaction gets an id of its own; the notice names it, so that listeners
        // know it changed nothing.
        let sql = "SELECT pg_notify('" + Self.commitChannel + "', $1 || '+' || CAST(pg_current_xact_id() AS text) || $2)"
        return connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: Self.quietLogger).map { _ in }
    }
}
#endif
