// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
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

    var dialect: SQLDialect { .postgresql }

    /// A connection in the store's schema.
    func connect() throws(StrataError) -> PostgreSQLConnection {
        let connection = try PostgreSQLConnection.connect(address)
        if let schema { try connection.use(schema: schema) }
        return connection
    }

    func reader() throws(StrataError) -> any DatabaseConnection {
        try connect()
    }

    func writer() throws(StrataError) -> any DatabaseConnection {
        let connection = try connect()
        connection.notifiesCommits = externalCommits == .notified
        try connection.setLockTimeout(milliseconds: busyTimeoutMilliseconds)
        return connection
    }

    func commitProbe() -> (any CommitProbe)? {
        PostgreSQLCommitProbe(backend: self)
    }

    /// The server hands out row ids, from a sequence per table.
    func makeRowIDSource() -> (any RowIDSource)? {
        PostgreSQLRowIDs(backend: self)
    }

    /// Creates the sequences of tables that have none (a new store, a new table, a store an
    /// earlier Strata wrote).
    func finishOpening(_ connection: any DatabaseConnection, tables: [String]) throws(StrataError) {
        try PostgreSQLRowIDs.createMissingSequences(connection, tables: tables)
    }

    /// A session-level advisory lock: taken before the store is
    /// checked, released once it is created or migrated (or the check failed). The schema is
    /// created first when missing, so that the check finds it (empty).
    func withMigrationLock(on connection: any DatabaseConnection, _ body: () throws(StrataError) -> Void) throws(StrataError) {
        let key = PostgreSQLConnection.lockKey(Self.migrationLockKey, schema: schema)
        // Another server's migration may take minutes: wait for it without limit.
        try connection.execute("SET lock_timeout = 0")
        try connection.execute("SELECT pg_advisory_lock(\(key))")
        defer { try? connection.execute("SELECT pg_advisory_unlock(\(key))") }
        try connection.execute("SET lock_timeout = \(busyTimeoutMilliseconds)")
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
