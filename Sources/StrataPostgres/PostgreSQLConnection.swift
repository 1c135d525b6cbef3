// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import Strata
import Synchronization

/// One connection to a PostgreSQL server, used synchronously.
///
/// Strata's contexts run their SQL from synchronous code (a transaction's closure, a main-actor
/// fetch), so each call here waits for postgres-nio's answer on the calling thread; the I/O itself
/// runs on NIO's shared event loops, never on the caller's thread or Swift's cooperative pool. A
/// connection has one user at a time, as a SQLite connection has, so it is not `Sendable`.
///
/// Statements are written with SQLite's `?` placeholders, as everywhere in Strata, and numbered
/// for PostgreSQL when they are made (see ``PostgreSQLPlaceholders``).
///
/// This file holds the connection's state; its work is in extensions by concern: connecting and
/// logging in (`+Connecting`), statements and answers (`+Statements`), transaction control
/// (`+Transactions`), commit notices (`+CommitNotices`), replica positions (`+ReplicaPositions`)
/// and server errors (`+Errors`).
final class PostgreSQLConnection: DatabaseConnection {
    /// The address this connection was made from (with every server it names).
    let address: PostgreSQLAddress
    /// The one server of the address it reached, as messages name it (`host:port`, or its socket):
    /// the server that a lost connection or a failed statement concerns.
    let server: String
    /// The schema its statements name tables in (first of its search path), or nil for the
    /// server's default search path.
    private(set) var schema: String?
    /// postgres-nio's connection.
    let connection: PostgresConnection
    /// The named statements prepared on this connection (see `runPrepared`).
    let preparedStatements = PreparedStatements()
    private var isClosed = false
    var cache: [String: PostgreSQLStatement] = [:]
    var batches: [String: PostgreSQLBatch] = [:]
    /// The batch whose rows wait to be sent, if any.
    var pending: PostgreSQLBatch?
    /// Whether a transaction is open: set by `BEGIN`, cleared by `COMMIT`, `ROLLBACK` and failures
    /// of the connection.
    var isInTransaction = false
    /// Rows changed by the last statement.
    var changes = 0
    /// How many statements this connection sent (what a test counts): each a round trip waited
    /// for, except a notification of commits.
    var statementsSent = 0
    /// What tells ``commitChannel``'s listeners of a write transaction's commit (the store's
    /// ``PostgreSQLStore/ExternalCommits/notified`` mode); nil: nothing does.
    var announcer: CommitAnnouncer?
    /// The notice of the open transaction's commit (see ``markCommit(tables:)``), which
    /// ``commit()`` hands to the ``announcer``; cleared by `BEGIN` and `ROLLBACK`.
    var noticeAfterCommit: (id: Int64, suffix: String)?
    /// The error of the statement that aborted the open transaction, if one did: PostgreSQL then
    /// refuses every later statement (SQLSTATE 25P02) until the transaction ends.
    var abortedBy: StrataError?
    /// The statement that began the open transaction, which begins it again when its first
    /// statement, a guarded read, failed (see `PostgreSQLConnection+GuardedReads.swift`).
    var transactionBegin: String?
    /// Statements sent since the open transaction began (its settings left out).
    var statementsSinceBegin = 0
    /// Whether one of the app's reads in a write transaction is running (see
    /// ``beginGuardedRead()``).
    var guardingRead = false
    /// Whether the savepoint guarded reads go back to is open: since the first guarded read
    /// after the transaction's first statement, until its next other statement.
    var readSavepointOpen = false

    /// The error of the statement that aborted the open transaction, if one did.
    var transactionAbortedBy: StrataError? { isInTransaction ? abortedBy : nil }
    /// How long a statement waits for a lock, in milliseconds (0: without limit).
    var lockTimeoutMilliseconds = 0
    /// Whether the connection reaches a pooler in transaction mode: nothing may then outlive a
    /// transaction, so ``transactionSettings`` are set in each one, and a statement outside a
    /// transaction runs in one of its own.
    let sessionless: Bool
    /// How long a statement may go unanswered before the connection is closed (and the statement
    /// fails with `connectionLost`): nil for no limit, except through a pooler in transaction
    /// mode, where it is ``poolerAnswerLimit``. For statements that must never take long.
    var answerLimit: TimeAmount?
    /// The settings a sessionless connection makes at the start of each transaction (name, value).
    var transactionSettings: [(name: String, value: String)] = []

    /// PostgreSQL's SQL.
    var dialect: SQLDialect { .postgresql }

    /// The rows a statement returned, and how many rows it changed.
    struct Result {
        /// The result columns' names, in order.
        var columns: [String]
        /// Every row, each cell as the value SQLite would hold.
        var rows: [[SQLValue]]
        /// Rows inserted, updated or deleted (0 for other statements).
        var changes: Int
    }

    static let ids = Atomic<Int>(0)

    /// postgres-nio's own log messages are not Strata's: its logger discards them.
    static let quietLogger = Logger(label: "strata.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    init(address: PostgreSQLAddress, server: String, connection: PostgresConnection, sessionless: Bool) {
        self.address = address
        self.server = server
        self.connection = connection
        self.sessionless = sessionless
        connection.closeFuture.whenComplete { [inFlight] _ in
            inFlight.withLockedValue { fail in
                defer { fail = nil }
                return fail
            }?()
        }
    }

    /// The answer of the statement being sent, failed by the connection's close. postgres-nio
    /// leaves a statement unanswered for good when the channel closes just as it is sent (seen
    /// when a server stopped right after a new connection logged in): with this, the statement
    /// fails, and its transaction with ``StrataError/connectionLost(server:database:)``.
    /// What fails it (nil when no statement is waited for).
    let inFlight = NIOLockedValueBox<(@Sendable () -> Void)?>(nil)

    deinit { close() }

    /// The tables of the connection's current schema (the first of its search path).
    func tableNames() throws(StrataError) -> Set<String> {
        let result = try query("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        return Set(result.rows.compactMap { $0.first.flatMap { String(sqlValue: $0) } })
    }

    /// The router of a store with replicas, told of each commit's position (writers only).
    var commitsSeenBy: ReplicaRouter?

    /// The key of a lock of the store in `schema`: `key` itself for the default schema, so that
    /// the stores of two schemas (two configurations of one stack) never wait for each other.
    static func lockKey(_ key: Int64, schema: String?) -> Int64 {
        guard let schema else { return key }
        return Int64(bitPattern: FNV1a.hash(String(key) + " " + schema))
    }

    /// Makes `schema` the first of the search path, so that every unqualified name is its.
    func use(schema: String) throws(StrataError) {
        try set("search_path", to: SQLIdentifier.quote(schema))
        self.schema = schema
    }

    /// Closes the connection; a closed connection is not used again.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = try? connection.close().wait()
    }

    /// Whether the server has closed the connection (a restart, a network failure, a terminated
    /// backend), or this side closed it.
    var isBroken: Bool { isClosed || connection.isClosed }
}
#endif
