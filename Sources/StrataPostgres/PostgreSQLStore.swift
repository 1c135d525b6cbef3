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

    /// How a stack learns that another app server (or another stack) committed to the database,
    /// so that its main context and monitors catch up (every
    /// `DataStack.externalCommitCheckInterval`).
    public enum ExternalCommits: Sendable, Equatable {
        /// Writers send a `NOTIFY` as they commit and each stack `LISTEN`s: a check with nothing
        /// new costs no round trip. The default.
        case notified
        /// Each check reads the server's snapshot (one small query), for engines that speak
        /// PostgreSQL's protocol without `LISTEN`/`NOTIFY`. Every app server of a database must
        /// then use it, since writers send no notification.
        case polled
    }

    /// A store in the database `url` names.
    public init(url: String, configuration: String? = nil, schema: String? = nil, externalCommits: ExternalCommits = .notified,
                busyTimeout: Duration = .seconds(5), maximumWriters: Int = 8) {
        self.url = url
        self.configuration = configuration
        self.schema = schema ?? configuration
        self.externalCommits = externalCommits
        self.busyTimeout = busyTimeout
        self.maximumWriters = max(1, maximumWriters)
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
        return PostgreSQLBackend(address: try PostgreSQLAddress(url: url), schema: schema, externalCommits: externalCommits,
                                 busyTimeoutMilliseconds: milliseconds, maximumWriters: maximumWriters)
    }
}
#endif
