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
    private var cache: [String: PostgreSQLStatement] = [:]
    private var batches: [String: PostgreSQLBatch] = [:]
    /// The batch whose rows wait to be sent, if any.
    private var pending: PostgreSQLBatch?
    /// Whether a transaction is open: set by `BEGIN`, cleared by `COMMIT`, `ROLLBACK` and failures
    /// of the connection.
    private(set) var isInTransaction = false
    /// Rows changed by the last statement.
    private(set) var changes = 0
    /// How many statements this connection sent (what a test counts): each a round trip waited
    /// for, except a notification of commits.
    private(set) var statementsSent = 0
    /// What tells ``commitChannel``'s listeners of a write transaction's commit (the store's
    /// ``PostgreSQLStore/ExternalCommits/notified`` mode); nil: nothing does.
    var announcer: CommitAnnouncer?
    /// The notice of the open transaction's commit (see ``markCommit(tables:)``), which
    /// ``commit()`` hands to the ``announcer``; cleared by `BEGIN` and `ROLLBACK`.
    private var noticeAfterCommit: (id: Int64, suffix: String)?
    /// The error of the statement that aborted the open transaction, if one did: PostgreSQL then
    /// refuses every later statement (SQLSTATE 25P02) until the transaction ends.
    private var abortedBy: StrataError?

    /// The error of the statement that aborted the open transaction, if one did.
    var transactionAbortedBy: StrataError? { isInTransaction ? abortedBy : nil }
    /// How long a statement waits for a lock, in milliseconds (0: without limit).
    private(set) var lockTimeoutMilliseconds = 0
    /// Whether the connection reaches a pooler in transaction mode: nothing may then outlive a
    /// transaction, so ``transactionSettings`` are set in each one, and a statement outside a
    /// transaction runs in one of its own.
    let sessionless: Bool
    /// How long a statement may go unanswered before the connection is closed (and the statement
    /// fails with `connectionLost`): nil for no limit, except through a pooler in transaction
    /// mode, where it is ``poolerAnswerLimit``. For statements that must never take long.
    var answerLimit: TimeAmount?
    /// The settings a sessionless connection makes at the start of each transaction (name, value).
    private var transactionSettings: [(name: String, value: String)] = []

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

    private static let ids = Atomic<Int>(0)

    /// postgres-nio's own log messages are not Strata's: its logger discards them.
    static let quietLogger = Logger(label: "strata.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    private init(address: PostgreSQLAddress, server: String, connection: PostgresConnection, sessionless: Bool) {
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
    private let inFlight = NIOLockedValueBox<(@Sendable () -> Void)?>(nil)

    /// `pending`, or a failure as soon as the connection closes, whichever comes first (NIO keeps
    /// the first completion of a promise and ignores the other).
    private func answerOrClose<Answer: Sendable>(_ pending: EventLoopFuture<Answer>) -> EventLoopFuture<Answer> {
        let promise = pending.eventLoop.makePromise(of: Answer.self)
        inFlight.withLockedValue { $0 = { promise.fail(ChannelError.ioOnClosedChannel) } }
        pending.whenComplete { promise.completeWith($0) }
        // A close before the promise was in place has already run its callback.
        if connection.isClosed { promise.fail(ChannelError.ioOnClosedChannel) }
        return promise.futureResult
    }

    deinit { close() }

    /// Connects and logs in, to the first of the address's servers that answers and is the kind
    /// its `target_session_attrs` asks for; any failure is
    /// ``StrataError/serverUnavailable(server:database:reason:)`` naming the server (every one
    /// tried, each with its reason, when the address names several), the database and the reason
    /// (down, no such database, wrong password, not a primary). `sessionless`: the address is a
    /// pooler's in transaction mode (see ``sessionless``).
    static func connect(_ address: PostgreSQLAddress, sessionless: Bool = false) throws(StrataError) -> PostgreSQLConnection {
        var reasons: [String] = []
        for endpoint in address.endpoints {
            do throws(StrataError) {
                let connection = try connect(endpoint, of: address, sessionless: sessionless)
                guard address.targetSession != .any else { return connection }
                let sql = "SELECT pg_is_in_recovery()"
                let inRecovery = try connection.query(sql).rows.first?.first == .integer(1)
                if address.targetSession.accepts(inRecovery: inRecovery) { return connection }
                connection.close()
                throw .serverUnavailable(server: PostgreSQLAddress.name(endpoint), database: address.database,
                                                    reason: inRecovery ? "it is a standby, not a primary" : "it is a primary, not a standby")
            } catch {
                guard address.endpoints.count > 1 else { throw error }
                guard case .serverUnavailable(let server, _, let reason) = error else { throw error }
                reasons.append("\(server): \(reason)")
            }
        }
        let wanted = address.targetSession == .any ? "none answered" : "none answered as a \(address.targetSession.rawValue) server"
        throw .serverUnavailable(server: address.server, database: address.database, reason: wanted + " (" + reasons.joined(separator: "; ") + ")")
    }

    /// Connects and logs in to one server of `address`.
    private static func connect(_ endpoint: PostgreSQLAddress.Endpoint, of address: PostgreSQLAddress,
                                sessionless: Bool) throws(StrataError) -> PostgreSQLConnection {
        let server = PostgreSQLAddress.name(endpoint)
        let configuration: PostgresConnection.Configuration
        do {
            configuration = try Self.configuration(endpoint, address)
        } catch {
            throw .serverUnavailable(server: server, database: address.database, reason: "TLS could not be set up: \(error)")
        }
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let id = ids.add(1, ordering: .relaxed).newValue
        do {
            let pending = PostgresConnection.connect(on: eventLoop, configuration: configuration, id: id, logger: quietLogger)
            let connection = try loggedIn(pending, within: address.connectTimeout)
            return PostgreSQLConnection(address: address, server: server, connection: connection, sessionless: sessionless)
        } catch {
            throw .serverUnavailable(server: server, database: address.database, reason: reason(error))
        }
    }

    /// Waits for a connection to log in, up to `limit` (nil: as long as it takes). A server that
    /// accepts the connection and then never answers (stuck, or stopping) fails it with
    /// ``LoginTimedOut`` instead of holding the caller for good; a login that completes after
    /// that is closed at once.
    private static func loggedIn(_ pending: EventLoopFuture<PostgresConnection>, within limit: Duration?) throws -> PostgresConnection {
        guard let limit else { return try pending.wait() }
        let eventLoop = pending.eventLoop
        let promise = eventLoop.makePromise(of: PostgresConnection.self)
        let timeout = eventLoop.scheduleTask(in: TimeAmount(limit)) {
            promise.fail(LoginTimedOut(limit: limit))
            pending.whenSuccess { late in _ = late.close() as EventLoopFuture<Void> }
        }
        // Both run on the connection's event loop, so exactly one of them decides the promise.
        pending.whenComplete { result in
            timeout.cancel()
            promise.completeWith(result)
        }
        return try promise.futureResult.wait()
    }

    /// A login that did not complete within the address's `connect_timeout`.
    struct LoginTimedOut: Error {
        let limit: Duration
    }

    private static func configuration(_ endpoint: PostgreSQLAddress.Endpoint, _ address: PostgreSQLAddress) throws -> PostgresConnection.Configuration {
        switch endpoint {
        case .socket(let folder, let port):
            return PostgresConnection.Configuration(unixSocketPath: folder + "/.s.PGSQL.\(port)", username: address.user,
                                                    password: address.password, database: address.database)
        case .tcp(let host, let port):
            let tls: PostgresConnection.Configuration.TLS
            switch address.tlsMode {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
            return PostgresConnection.Configuration(host: host, port: port, username: address.user, password: address.password,
                                                    database: address.database, tls: tls)
        }
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

    /// Whether `sql` begins or ends a transaction.
    private static func controlsTransactions(_ sql: String) -> Bool {
        sql.hasPrefix("BEGIN") || sql == "COMMIT" || sql == "ROLLBACK"
    }

    /// Sets ``transactionSettings`` in the transaction just begun, in one round trip.
    private func applyTransactionSettings() throws(StrataError) {
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
    private func set(_ name: String, to value: String) throws(StrataError) {
        guard sessionless else {
            try query("SELECT set_config($1, $2, false)", [.text(name), .text(value)])
            return
        }
        transactionSettings.removeAll { $0.name == name }
        transactionSettings.append((name, value))
    }

    /// Sends one statement and waits for its rows; errors name `original`.
    @discardableResult
    func send(_ query: PostgresQuery, as original: String) throws(StrataError) -> Result {
        try willSend()
        let answer = try answer(to: connection.query(query, logger: Self.quietLogger), of: original)
        switch answer.metadata.command {
        case "BEGIN":
            isInTransaction = true
            abortedBy = nil
            noticeAfterCommit = nil
            if sessionless, !transactionSettings.isEmpty { try applyTransactionSettings() }
        case "COMMIT", "ROLLBACK":
            isInTransaction = false
            abortedBy = nil
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

    /// The tables of the connection's current schema (the first of its search path).
    func tableNames() throws(StrataError) -> Set<String> {
        let result = try query("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        return Set(result.rows.compactMap { $0.first.flatMap { String(sqlValue: $0) } })
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

    /// The router of a store with replicas, told of each commit's position (writers only).
    var commitsSeenBy: ReplicaRouter?

    /// Where the server's log ends now (`pg_current_wal_insert_lsn()`): past every commit it has made.
    func insertPosition() throws(StrataError) -> WALPosition {
        let sql = "SELECT CAST(pg_current_wal_insert_lsn() AS text)"
        guard let position = try WALPosition.read(query(sql), sql: sql) else {
            throw .server(code: "?", message: "the server did not return its log position", sql: sql)
        }
        return position
    }

    /// How far a standby has replayed its primary's log (`pg_last_wal_replay_lsn()`); nil on a
    /// server that is not one.
    func replayPosition() throws(StrataError) -> WALPosition? {
        let sql = "SELECT CAST(pg_last_wal_replay_lsn() AS text)"
        return try WALPosition.read(query(sql), sql: sql)
    }

    /// Makes every statement wait at most `milliseconds` for a lock (a row another transaction changes), then
    /// fail with ``StrataError/storeBusy(file:milliseconds:)``.
    func setLockTimeout(milliseconds: Int) throws(StrataError) {
        try set("lock_timeout", to: String(milliseconds))
        lockTimeoutMilliseconds = milliseconds
    }

    /// How long a statement sent through a pooler in transaction mode may go unanswered before its
    /// connection is closed.
    static let poolerAnswerLimit: TimeAmount = .seconds(60)

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

    /// `ROLLBACK`, dropping the rows of batched writes not sent yet.
    func rollback() throws(StrataError) {
        noticeAfterCommit = nil
        dropPendingRows()
        try execute("ROLLBACK")
    }

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
    private func dropPendingRows() {
        pending?.discard()
        pending = nil
    }

    func prepare(_ sql: String) throws(StrataError) -> any DatabaseStatement {
        PostgreSQLStatement(connection: self, sql: sql)
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

    /// Whether `error` says a statement's session is over: the server's last answer before it
    /// closes the session (severity `FATAL` or `PANIC`: `pg_terminate_backend`, a shutdown, a
    /// crashed sibling backend), or the socket closed or failed under the statement. Either can
    /// arrive before postgres-nio marks the connection closed.
    static func endsTheSession(_ error: any Error) -> Bool {
        if let fields = ServerErrorFields(error) { return fields.severity == "FATAL" || fields.severity == "PANIC" }
        if case .connectionClosed? = error as? PostgresError { return true }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .serverClosedConnection, .uncleanShutdown, .connectionError:
            return true
        default:
            return false
        }
    }

    /// A statement's error: what the server said, with its SQLSTATE, or why the connection failed.
    private func failure(_ error: any Error, sql: String) -> StrataError {
        if Self.endsTheSession(error) { return .connectionLost(server: server, database: address.database) }
        if let info = ServerErrorFields(error) {
            let code = info.sqlState ?? "?"
            // A statement after a serialization failure or deadlock reports that conflict, so that
            // the transaction runs again even when a read that cannot throw met it first.
            if code == "25P02", let abortedBy, abortedBy.conflict != nil { return abortedBy }
            if code == "25P02", let abortedBy {
                return .server(code: code, message: "an earlier statement of this transaction failed, so PostgreSQL ignores the rest of it "
                               + "until it ends; that statement's error: \(abortedBy)", sql: sql)
            }
            if code == "55P03" {
                return .storeBusy(file: address.description, milliseconds: lockTimeoutMilliseconds)
            }
            if code == "22021", info.message?.contains("0x00") == true {
                return .server(code: code, message: "PostgreSQL's text cannot hold the character U+0000 (NUL), which SQLite's can: "
                               + "store such values as Data", sql: sql)
            }
            if code == "23505", let table = info.tableName, let columns = info.detail.flatMap(Self.keyColumns) {
                return .uniquenessViolation(entity: table, attributes: columns)
            }
            let message = [info.message, info.detail].compactMap { $0 }.joined(separator: ": ")
            return .server(code: code, message: message, sql: sql)
        }
        if isBroken { return .connectionLost(server: server, database: address.database) }
        return .serverUnavailable(server: server, database: address.database, reason: Self.reason(error))
    }

    /// The columns a unique-violation detail names: `Key (sku)=(W-1) already exists.` gives
    /// `["sku"]`, `Key ("order", kind)=(1, a) ...` gives `["order", "kind"]`.
    static func keyColumns(_ detail: String) -> [String]? {
        guard detail.hasPrefix("Key ("), let end = detail.range(of: ")=(") else { return nil }
        let list = detail[detail.index(detail.startIndex, offsetBy: 5)..<end.lowerBound]
        return list.split(separator: ", ").map { name in
            name.hasPrefix("\"") && name.hasSuffix("\"") && name.count >= 2
                ? name.dropFirst().dropLast().replacingOccurrences(of: "\"\"", with: "\"") : String(name)
        }
    }

    /// Why a connection failed, in the server's words when it said something.
    static func reason(_ error: any Error) -> String {
        if let timedOut = error as? LoginTimedOut {
            return "it did not answer the login within \(timedOut.limit.components.seconds) s (the URL's connect_timeout); "
                + "is the server overloaded, stopping or stuck?"
        }
        guard let error = error as? PSQLError else { return String(describing: error) }
        if let info = error.serverInfo, let message = info[.message] {
            if info[.sqlState] == "53300" {
                return message + " (SQLSTATE 53300): the server has no connection left for this app; raise its max_connections "
                    + "(or the role's or database's CONNECTION LIMIT), or lower maximumWriters across the app servers"
            }
            return message + (info[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
        }
        switch error.code {
        case .serverClosedConnection, .clientClosedConnection: return "the connection was closed"
        default: break
        }
        if let underlying = error.underlying { return systemReason(underlying) }
        return error.code.description
    }

    /// Why the system could not reach the server: no server there, refused, unreachable, too slow.
    private static func systemReason(_ error: any Error) -> String {
        if let error = error as? IOError {
            let system = String(cString: strerror(error.errnoCode))
            switch error.errnoCode {
            case ENOENT: return "no server listens there (\(system)); is PostgreSQL running, and is this its socket folder?"
            case ECONNREFUSED: return "the server refused the connection (\(system)); is PostgreSQL running and listening on that port?"
            default: return system
            }
        }
        if let error = error as? NIOConnectionError {
            if let failure = error.connectionErrors.first { return systemReason(failure.error) }
            if error.dnsAError != nil || error.dnsAAAAError != nil { return "the host name could not be resolved" }
        }
        if let error = error as? ChannelError, case .connectTimeout = error {
            return "no answer within the connection timeout; is the host reachable and the port open?"
        }
        return String(describing: error)
    }
}
#endif
