// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import Foundation
import Strata

/// The connections of a ``PostgreSQLStore``: each reaches the store's database and names tables
/// in its schema.
struct PostgreSQLBackend: ServerBackend {
    let address: PostgreSQLAddress
    /// The schema of the store's tables, or nil for the connection's default.
    let schema: String?
    let externalCommits: PostgreSQLStore.ExternalCommits
    let busyTimeoutMilliseconds: Int
    /// How many transactions of one stack write at once.
    let maximumWriters: Int
    /// How long kept connections may sit unused before they are closed (nil: kept).
    let idleTimeout: Duration?
    /// Whether the connections reach a pooler in transaction mode, so that no setting may outlive
    /// a transaction (see ``PostgreSQLStore/Pooler``).
    let sessionless: Bool
    /// Where the connection that listens for commits connects when the store's URL reaches a
    /// pooler in transaction mode (nil: it polls through the pooler).
    let directAddress: PostgreSQLAddress?
    /// Where reads go when the store has replicas (nil: every read goes to ``address``).
    let router: ReplicaRouter?
    /// What tells the stacks that listen of the writers' commits (nil: the store's
    /// ``PostgreSQLStore/ExternalCommits/polled`` mode, in which nothing does).
    let announcer: CommitAnnouncer?

    var dialect: SQLDialect { .postgresql }

    /// A connection in the store's schema, to the primary or to `replica`.
    func connect(to replica: PostgreSQLAddress? = nil) throws(StrataError) -> PostgreSQLConnection {
        let connection = try PostgreSQLConnection.connect(replica ?? address, sessionless: sessionless)
        if let schema { try connection.use(schema: schema) }
        return connection
    }

    /// A connection that names no table (so in no schema), for the server's own functions:
    /// `nextval` of a qualified sequence, the server's snapshot.
    func connectOutsideSchema() throws(StrataError) -> PostgreSQLConnection {
        try PostgreSQLConnection.connect(address, sessionless: sessionless)
    }

    /// How the stack learns of other app servers' commits: ``PostgreSQLStore/ExternalCommits/polled``
    /// behind a pooler in transaction mode with no address to listen at, the store's choice otherwise.
    var commitDiscovery: PostgreSQLStore.ExternalCommits {
        sessionless && directAddress == nil ? .polled : externalCommits
    }

    /// A connection that keeps its session (for `LISTEN`, the migration lock): to
    /// ``directAddress`` when there is one.
    func connectDirectly() throws(StrataError) -> PostgreSQLConnection {
        guard let directAddress else { return try connectOutsideSchema() }
        return try PostgreSQLConnection.connect(directAddress, sessionless: false)
    }

    /// A connection for reads: to the primary, or (with replicas) one that routes each read
    /// transaction (see ``PostgreSQLRoutedReader``).
    func reader() throws(StrataError) -> any DatabaseConnection {
        guard let router else { return try connect() }
        return PostgreSQLRoutedReader(backend: self, router: router)
    }

    func writer() throws(StrataError) -> any DatabaseConnection {
        let connection = try connect()
        connection.commitsSeenBy = router
        connection.announcer = announcer
        try connection.setLockTimeout(milliseconds: busyTimeoutMilliseconds)
        return connection
    }

    /// Sends the notification of the last commits, and closes the announcer's connection.
    func close() {
        announcer?.close()
    }

    func commitProbe(doorbell: CommitDoorbell) -> (any CommitProbe)? {
        PostgreSQLCommitProbe(backend: self, doorbell: doorbell)
    }

    /// The server hands out row ids, from a sequence per table.
    func makeRowIDSource() -> (any RowIDSource)? {
        PostgreSQLRowIDs(backend: self)
    }

    /// Creates the sequences of tables that have none (a new store, a new table, a store an
    /// earlier Strata wrote).
    func finishOpening(_ connection: any DatabaseConnection, tables: [String]) throws(StrataError) {
        try PostgreSQLRowIDs.createMissingSequences(connection, tables: tables)
        // Replicas serve this stack's reads only once they have the store as it was opened.
        if let router, let connection = connection as? PostgreSQLConnection {
            router.mustSee(try connection.insertPosition())
        }
    }

    /// An advisory lock held by a transaction of a connection of its own, left open from before
    /// the store is checked until it is created or migrated (or the check failed); the server
    /// releases it if this process dies. Behind a pooler in transaction mode without a direct
    /// address, that transaction holds one of the pooler's server connections, so a server that
    /// finds the lock taken ends its transaction and tries again every 50 ms rather than hold one
    /// while it waits. The schema is created first when missing, so that the check finds it (empty).
    func withMigrationLock(on connection: any DatabaseConnection, _ body: () throws(StrataError) -> Void) throws(StrataError) {
        let key = PostgreSQLConnection.lockKey(Self.migrationLockKey, schema: schema)
        let holder = try connectDirectly()
        defer { holder.close() }
        if holder.sessionless {
            while true {
                try holder.execute("BEGIN")
                if try holder.query("SELECT pg_try_advisory_xact_lock($1)", [.integer(key)]).rows.first?.first == .integer(1) { break }
                try holder.rollback()
                usleep(50_000)
            }
        } else {
            try holder.execute("BEGIN")
            // Another server's migration may take minutes: wait for it without limit.
            try holder.execute("SET LOCAL lock_timeout = 0")
            try holder.query("SELECT pg_advisory_xact_lock($1)", [.integer(key)])
        }
        defer { try? holder.rollback() }
        if let schema { try connection.execute("CREATE SCHEMA IF NOT EXISTS " + SQLIdentifier.quote(schema)) }
        try body()
    }

    func prepare(_ connection: any DatabaseConnection) throws(StrataError) {
        try PostgreSQLFunctions.create(on: connection)
    }

    /// The advisory lock key of Strata's migration lock: "stratam" in ASCII.
    static let migrationLockKey: Int64 = 0x73_7472_6174_616D
}
#endif
