/// A connection to a store's database: the seam between the runtime, which builds statements and
/// reads rows, and a backend (SQLite in this module, PostgreSQL in `StrataPostgres`).
///
/// A connection has one user at a time (the writer queue, the main actor, one read context), so
/// implementations need not be thread-safe and are not `Sendable`.
package protocol DatabaseConnection: AnyObject {
    /// The SQL the connection speaks.
    var dialect: SQLDialect { get }

    /// Runs SQL that binds nothing and returns nothing (DDL, transaction control).
    func execute(_ sql: String) throws(StrataError)

    /// Opens a write transaction. SQLite's holds the store's write lock until it ends, so nothing
    /// another connection commits comes between what it reads and what it writes; a server whose
    /// writers run side by side (``writesSideBySide``) opens one that reads one snapshot and fails
    /// with a serialization error when a concurrent commit changed a row it changes. A lock held
    /// elsewhere for too long is ``StrataError/storeBusy(file:milliseconds:)``.
    func beginWriteTransaction() throws(StrataError)

    /// Opens a write transaction for a context that checks the rows it changes itself (an unsafe
    /// transaction, whose check reads them with `FOR UPDATE`): on a server whose
    /// writers run side by side, each statement sees what was committed before it, and a row the
    /// check locked waits for its other writer instead of failing. SQLite's is the same as
    /// ``beginWriteTransaction()``.
    func beginLockingWriteTransaction() throws(StrataError)

    /// Whether write transactions of several connections run at once (a database server): commits
    /// are then marked with their transaction's id, not counted in the store, and row ids come
    /// from the server.
    var writesSideBySide: Bool { get }

    /// Inside a write transaction of a connection that ``writesSideBySide``: its transaction id,
    /// which marks the commit; the store's listeners hear of it, and of `tables`, the tables whose
    /// rows it changed (nil when it changed relationships, which concern other tables' objects),
    /// when it commits.
    func markCommit(tables: [String]?) throws(StrataError) -> Int64

    /// Inside a read transaction of a connection that ``writesSideBySide``: which transactions its
    /// snapshot sees.
    func snapshotMark() throws(StrataError) -> TransactionSnapshot

    /// The error of the statement that aborted the open transaction, when the server refuses
    /// every later statement of it until it ends (PostgreSQL); nil otherwise.
    var transactionAbortedBy: StrataError? { get }

    /// Inside a write transaction, before one of the app's reads: marks a point that
    /// ``endGuardedRead(failed:)`` goes back to when the read fails, so that a server which refuses
    /// the rest of a transaction after a failed statement (PostgreSQL) lets the transaction go on.
    /// Returns whether it marked one; SQLite goes on after a failed statement and marks nothing.
    func beginGuardedRead() throws(StrataError) -> Bool

    /// Ends a read that ``beginGuardedRead()`` marked. When it `failed` and its failure aborted
    /// the transaction, the transaction goes back to the mark and is usable again, unless the
    /// failure was a serialization failure or a deadlock, after which the transaction runs again.
    func endGuardedRead(failed: Bool)

    /// Opens a transaction that reads one committed state of the store from its first read to
    /// its end, whatever other connections commit meanwhile.
    func beginReadTransaction() throws(StrataError)

    /// Commits the open transaction.
    func commit() throws(StrataError)

    /// Rolls the open transaction back.
    func rollback() throws(StrataError)

    /// A statement prepared once per connection and reused: reset and cleared before it is returned.
    func cachedStatement(_ sql: String) throws(StrataError) -> any DatabaseStatement

    /// A statement writing `write`'s rows, one per step, prepared once per connection and reused
    /// (reset before it is returned). A backend may keep the rows a step adds and send them
    /// together before the connection's next other statement and before its commit; errors of
    /// the rows then surface from that statement (see ``BatchedWrite``).
    func batchedStatement(_ write: BatchedWrite) throws(StrataError) -> any DatabaseStatement

    /// A new statement, used once.
    func prepare(_ sql: String) throws(StrataError) -> any DatabaseStatement

    /// Rows changed by the last statement.
    var changes: Int { get }

    /// The names of the database's tables (those a store keeps its rows in).
    func tableNames() throws(StrataError) -> Set<String>

    /// Whether a transaction is open.
    var isInTransaction: Bool { get }

    /// Whether the connection was lost (a server restarted, a network failed, a backend was
    /// terminated): a context drops a broken connection and makes a new one before its next
    /// transaction or snapshot. A SQLite connection never breaks.
    var isBroken: Bool { get }
}

extension DatabaseConnection {
    /// A write transaction, the same as any other.
    package func beginLockingWriteTransaction() throws(StrataError) {
        try beginWriteTransaction()
    }

    /// SQLite's writers take turns.
    package var writesSideBySide: Bool { false }

    /// Not called on a connection whose writers take turns.
    package func markCommit(tables: [String]?) throws(StrataError) -> Int64 {
        misuse("Strata: markCommit() on a connection whose writers take turns")
    }

    /// Not called on a connection whose writers take turns.
    package func snapshotMark() throws(StrataError) -> TransactionSnapshot {
        misuse("Strata: snapshotMark() on a connection whose writers take turns")
    }

    /// SQLite goes on with a transaction after a failed statement.
    package var transactionAbortedBy: StrataError? { nil }

    /// SQLite goes on with a transaction after a failed statement: nothing to mark.
    package func beginGuardedRead() throws(StrataError) -> Bool { false }

    /// Nothing was marked.
    package func endGuardedRead(failed: Bool) {}
}

/// A statement of a ``DatabaseConnection``: bind by index (from 1), step through the rows, read
/// the current one.
package protocol DatabaseStatement: AnyObject {
    /// Resets the statement and clears its bindings.
    func reset()

    /// Steps once: true when a row is available, false when done.
    @discardableResult
    func step() throws(StrataError) -> Bool

    /// Binds one value.
    func bind(_ value: SQLValue, at index: Int32)

    /// Binds an integer.
    func bind(_ value: Int64, at index: Int32)

    /// Binds a double, every bit of it.
    func bind(_ value: Double, at index: Int32)

    /// Binds text.
    func bind(_ value: String, at index: Int32)

    /// Binds NULL.
    func bindNull(at index: Int32)

    /// The current row.
    var row: DatabaseRow { get }

    /// Number of result columns.
    var columnCount: Int32 { get }

    /// A result column's name.
    func columnName(_ index: Int32) -> String
}

extension DatabaseStatement {
    /// Binds every value in order, starting at index 1.
    package func bind(_ values: [SQLValue]) {
        for (offset, value) in values.enumerated() {
            bind(value, at: Int32(offset + 1))
        }
    }
}
