// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import NIOCore
import PostgresNIO
import Strata

/// Sending statements and reading their answers: placeholders bound, rows read as the values SQLite
/// would hold, batched rows sent first, and an answer that never comes turned into a lost connection.
extension PostgreSQLConnection {
    /// `pending`, or a failure as soon as the connection closes, whichever comes first (NIO keeps
    /// the first completion of a promise and ignores the other).
    func answerOrClose<Answer: Sendable>(_ pending: EventLoopFuture<Answer>) -> EventLoopFuture<Answer> {
        let promise = pending.eventLoop.makePromise(of: Answer.self)
        inFlight.withLockedValue { $0 = { promise.fail(ChannelError.ioOnClosedChannel) } }
        pending.whenComplete { promise.completeWith($0) }
        // A close before the promise was in place has already run its callback.
        if connection.isClosed { promise.fail(ChannelError.ioOnClosedChannel) }
        return promise.futureResult
    }

    /// Runs one statement with `$1`, `$2`, ... bound to `arguments`, and returns all its rows.
    @discardableResult
    func query(_ sql: String, _ arguments: [SQLValue] = []) throws(StrataError) -> Result {
        try run(sql, arguments, as: sql)
    }

    /// Runs `sql` (placeholders numbered) with `arguments`; errors name `original`, the SQL as
    /// Strata wrote it. The rows of a batched write waiting to be sent go first.
    func run(_ sql: String, _ arguments: [SQLValue], as original: String) throws(StrataError) -> Result {
        if let pending, !isBroken { try pending.send() }
        let query = PostgresQuery(unsafeSQL: sql, binds: PostgreSQLValues.bindings(arguments))
        guard sessionless, !isInTransaction, !transactionSettings.isEmpty, !Self.controlsTransactions(sql) else {
            return try send(query, as: original)
        }
        // Through a pooler in transaction mode, the settings hold inside a transaction only.
        try send(PostgresQuery(unsafeSQL: "BEGIN"), as: "BEGIN")
        do {
            let result = try send(query, as: original)
            try send(PostgresQuery(unsafeSQL: "COMMIT"), as: "COMMIT")
            changes = result.changes
            return result
        } catch {
            if isInTransaction { _ = try? send(PostgresQuery(unsafeSQL: "ROLLBACK"), as: "ROLLBACK") }
            throw error
        }
    }

    /// Sends one statement and waits for its rows; errors name `original`.
    @discardableResult
    func send(_ query: PostgresQuery, as original: String) throws(StrataError) -> Result {
        prepareToSend(original)
        try willSend()
        let answer = try answer(to: connection.query(query, logger: Self.quietLogger), of: original)
        switch answer.metadata.command {
        case "BEGIN":
            isInTransaction = true
            abortedBy = nil
            noticeAfterCommit = nil
            transactionBegin = original
            readSavepointOpen = false
            if sessionless, !transactionSettings.isEmpty { try applyTransactionSettings() }
            statementsSinceBegin = 0
        case "COMMIT", "ROLLBACK":
            // `ROLLBACK TO SAVEPOINT` answers `ROLLBACK` too, and leaves the transaction open.
            guard !original.hasPrefix("ROLLBACK TO") else { break }
            isInTransaction = false
            abortedBy = nil
            readSavepointOpen = false
        default: break
        }
        var columns: [String] = []
        var rows: [[SQLValue]] = []
        rows.reserveCapacity(answer.rows.count)
        for row in answer.rows {
            var values: [SQLValue] = []
            values.reserveCapacity(columns.count)
            for cell in row {
                if rows.isEmpty { columns.append(cell.columnName) }
                values.append(PostgreSQLValues.value(of: cell))
            }
            rows.append(values)
        }
        changes = answer.metadata.rows ?? 0
        return Result(columns: columns, rows: rows, changes: changes)
    }

    /// Counts a statement about to be sent; on a connection known to be lost, fails with
    /// ``StrataError/connectionLost(server:database:)`` instead (postgres-nio would wait for an
    /// answer that never comes on a closed channel).
    func willSend() throws(StrataError) {
        guard !isBroken else {
            isInTransaction = false
            dropPendingRows()
            throw .connectionLost(server: server, database: address.database)
        }
        statementsSent += 1
        statementsSinceBegin += 1
    }

    /// Waits for the answer to a statement just sent; a failure is reported as `original`'s, and
    /// one that ends the session closes the connection (its transaction is then over).
    func answer<Answer: Sendable>(to sent: EventLoopFuture<Answer>, of original: String) throws(StrataError) -> Answer {
        do {
            let pending = answerOrClose(sent)
            defer { inFlight.withLockedValue { $0 = nil } }
            // Behind a pooler in transaction mode, an answer that never comes closes the
            // connection (a restarted PgBouncer was seen to leave a new client's statement
            // unanswered for good), so the transaction fails with `connectionLost` instead.
            let limit = answerLimit ?? (sessionless ? Self.poolerAnswerLimit : nil)
            let watchdog = limit.map { limit in
                pending.eventLoop.scheduleTask(in: limit) { [connection] in _ = connection.close() as EventLoopFuture<Void> }
            }
            defer { watchdog?.cancel() }
            return try pending.wait()
        } catch {
            // A FATAL error (a terminated backend, a server shutting down) ends the session; the
            // socket's close may not have been seen yet, so this side closes it now.
            if Self.endsTheSession(error) { close() }
            if isBroken {
                isInTransaction = false
                dropPendingRows()
            }
            let reported = failure(error, sql: original)
            if isInTransaction, abortedBy == nil { abortedBy = reported }
            throw reported
        }
    }

    /// Runs a statement that returns nothing and binds nothing (DDL, `BEGIN`, `SET`).
    func execute(_ sql: String) throws(StrataError) {
        try query(sql)
    }

    /// How long a statement sent through a pooler in transaction mode may go unanswered before its
    /// connection is closed.
    static let poolerAnswerLimit: TimeAmount = .seconds(60)

    func cachedStatement(_ sql: String) throws(StrataError) -> any DatabaseStatement {
        if let statement = cache[sql] {
            statement.reset()
            return statement
        }
        let statement = PostgreSQLStatement(connection: self, sql: sql)
        cache[sql] = statement
        return statement
    }

    /// The batch of `write`'s rows (see ``PostgreSQLBatch``), one per write and connection.
    func batchedStatement(_ write: BatchedWrite) throws(StrataError) -> any DatabaseStatement {
        if let batch = batches[write.sql] {
            batch.reset()
            return batch
        }
        let batch = PostgreSQLBatch(connection: self, write: write)
        batches[write.sql] = batch
        return batch
    }

    /// Called as `batch` gets a row: the rows of another batch waiting are sent first, so rows
    /// reach the server in the order they were written.
    func willAdd(to batch: PostgreSQLBatch) throws(StrataError) {
        if let pending, pending !== batch { try pending.send() }
        pending = batch
    }

    /// Called as `batch` sends its rows.
    func didSend(_ batch: PostgreSQLBatch) {
        if pending === batch { pending = nil }
    }

    /// Forgets the rows waiting (their transaction ends without them).
    func dropPendingRows() {
        pending?.discard()
        pending = nil
    }

    func prepare(_ sql: String) throws(StrataError) -> any DatabaseStatement {
        PostgreSQLStatement(connection: self, sql: sql)
    }
}
#endif
