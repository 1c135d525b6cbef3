// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import Strata

/// A PostgreSQL database as a storage: the same generated model as a `SQLiteStore`, on a
/// server several app processes on several machines share.
///
/// ```swift
/// try await stack.addStorage(PostgreSQLStore(url: "postgres://app@db.internal:5432/pets"))
/// ```
///
/// Adding it creates the tables in an empty database, checks that a database Strata created holds
/// this model at the current version, or migrates one at an older version (once, however many
/// app servers start at the same moment). A URL that is not a PostgreSQL URL, a server that
/// cannot be reached, a wrong password or a missing database is
/// `StrataError.serverUnavailable(server:database:reason:)`, and nothing is written.
public struct PostgreSQLStore: StorageInterface {
    /// The connection URL, in libpq's form (see ``PostgreSQLAddress``).
    public let url: String
    /// The configuration whose entities it holds; nil means `Default`.
    public let configuration: String?
    /// How the stack learns of commits other app servers make.
    public let externalCommits: ExternalCommits
    /// How long a transaction waits for a row another transaction is changing, or for one of its
    /// stack's writer connections, before it fails with `StrataError.storeBusy(file:milliseconds:)`,
    /// as a `SQLiteStore`'s `busyTimeout` does.
    /// Opening waits for another server's migration without limit.
    public let busyTimeout: Duration
    /// How many transactions of one stack write at once, each on a connection of its own (8
    /// unless given); more wait their turn, up to `busyTimeout`, then fail with
    /// `StrataError.storeBusy` having run nothing. Transactions of a stack with a SQLite store
    /// besides run one at a time.
    public let maximumWriters: Int
    /// The PostgreSQL schema that holds its tables, created when missing. Each configuration of a
    /// model is a store of its own, so the stores of several configurations can share one
    /// database, each in its schema: by default a named configuration's store is in the schema of
    /// that name, and the `Default` configuration's in the first schema of the connection's search
    /// path (`public`, unless the role or the database says otherwise).
    public let schema: String?
    /// How long a connection the stack keeps for later (a writer's beyond those in use, a read
    /// context's parked one) may sit unused before it is closed (60 seconds unless given; nil
    /// keeps them), so a burst of transactions does not hold the server's connections after it.
    public let idleTimeout: Duration?
    /// What stands between the app and the server: nothing (or a pooler in session mode), or a
    /// pooler in transaction mode such as PgBouncer's `pool_mode = transaction`.
    public let pooler: Pooler
    /// Hot standbys of the database (streaming replicas), in libpq's URL form, that take this
    /// stack's reads: the main context's fetches and queries, read contexts, and what monitors
    /// read again. Transactions, migrations and the listener for other servers' commits use
    /// `url`. Empty unless given: every read goes to `url`.
    ///
    /// Reads take the replicas in turn, and read your writes: a read runs on a replica only once
    /// it has replayed this stack's commits, the commits of other servers it heard of, and
    /// everything its earlier reads showed, so a monitor never goes back to an older state.
    public let replicas: [String]
    /// How long a read waits for a replica to replay what it must show (500 ms unless given);
    /// past it the read runs on the next replica or on the primary, and the replica is left out
    /// for 5 seconds, as one that cannot be reached is.
    public let maximumReplicaLag: Duration

    /// What stands between the app and the server.
    ///
    /// Behind a pooler in transaction mode, each transaction may run on a different server session,
    /// so Strata keeps nothing in a session: the schema and lock timeout are set inside each
    /// transaction (`set_config(..., true)`, one more round trip per transaction), and a statement
    /// outside a transaction runs in one of its own. Two things need a session: listening for
    /// other app servers' commits (`LISTEN`) and holding the migration lock while the store opens.
    /// Given `directURL`, a URL that reaches the same database without the pooler, the stack does
    /// both there; without one it polls for commits (see ``ExternalCommits/polled``; its writers
    /// still notify the stacks that listen) and takes the migration lock by trying it every 50 ms.
    ///
    /// ```swift
    /// PostgreSQLStore(url: "postgres://app@pgbouncer.internal:6432/pets",
    ///                 pooler: .transactionMode(directURL: "postgres://app@db.internal:5432/pets"))
    /// ```
    public enum Pooler: Sendable, Equatable {
        /// The URL reaches the server itself, or a pooler in session mode: a connection is one
        /// server session for as long as it lives. The default.
        case none
        /// The URL reaches a pooler in transaction mode; `directURL`, when given, reaches the same
        /// database directly, for listening for commits and for the migration lock.
        case transactionMode(directURL: String? = nil)
    }

    /// How a stack learns that another app server (or another stack) committed to the database,
    /// so that its main context and monitors catch up (every
    /// `DataStack.externalCommitCheckInterval`).
    public enum ExternalCommits: Sendable, Equatable {
        /// Writers send a `NOTIFY` once they have committed and each stack `LISTEN`s: a check with
        /// nothing new costs no round trip, and one at least every 5 s takes a new snapshot, which
        /// finds a commit whose notification went missing. The default.
        case notified
        /// Each check reads the server's snapshot (one small query), for engines that speak
        /// PostgreSQL's protocol without `LISTEN`/`NOTIFY`. Every app server of a database must
        /// then use it, since writers send no notification.
        case polled
    }

    /// A store in the database `url` names.
    public init(url: String, configuration: String? = nil, schema: String? = nil, externalCommits: ExternalCommits = .notified,
                busyTimeout: Duration = .seconds(5), maximumWriters: Int = 8, idleTimeout: Duration? = .seconds(60),
                pooler: Pooler = .none, replicas: [String] = [], maximumReplicaLag: Duration = .milliseconds(500)) {
        self.url = url
        self.configuration = configuration
        self.schema = schema ?? configuration
        self.externalCommits = externalCommits
        self.busyTimeout = busyTimeout
        self.maximumWriters = max(1, maximumWriters)
        self.pooler = pooler
        self.idleTimeout = idleTimeout
        self.replicas = replicas
        self.maximumReplicaLag = maximumReplicaLag
    }

    /// `PostgreSQLStore(postgres://user@host:port/database)`, with ` schema NAME` for a store in
    /// a schema of its own; never the password.
    public var description: String {
        "PostgreSQLStore(" + displayName + ")"
    }
}

extension PostgreSQLStore: ServerStorage {
    package var displayName: String {
        ((try? PostgreSQLAddress(url: url))?.description ?? PostgreSQLAddress.redacted(url)) + (schema.map { " schema " + $0 } ?? "")
    }

    package func makeBackend() throws(StrataError) -> any ServerBackend {
        let (seconds, attoseconds) = busyTimeout.components
        let milliseconds = max(1, Int(clamping: seconds) &* 1_000 &+ Int(attoseconds / 1_000_000_000_000_000))
        var directAddress: PostgreSQLAddress?
        var sessionless = false
        if case .transactionMode(let directURL) = pooler {
            sessionless = true
            directAddress = try directURL.map { (url: String) throws(StrataError) in try PostgreSQLAddress(url: url) }
        }
        let replicaAddresses = try replicas.map { (url: String) throws(StrataError) in try PostgreSQLAddress(url: url) }
        let router = replicaAddresses.isEmpty ? nil : ReplicaRouter(replicas: replicaAddresses, maximumLag: maximumReplicaLag)
        let address = try PostgreSQLAddress(url: url)
        let announcer = externalCommits == .notified ? CommitAnnouncer(idleTimeout: idleTimeout) { [sessionless] () throws(StrataError) in
            try PostgreSQLConnection.connect(address, sessionless: sessionless)
        } : nil
        return PostgreSQLBackend(address: address, schema: schema, externalCommits: externalCommits,
                                 busyTimeoutMilliseconds: milliseconds, maximumWriters: maximumWriters, idleTimeout: idleTimeout, sessionless: sessionless,
                                 directAddress: directAddress, router: router, announcer: announcer)
    }
}
#endif
