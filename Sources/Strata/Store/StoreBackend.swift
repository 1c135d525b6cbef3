/// How a storage's connections are made: the part of opening a store that differs between
/// backends (a SQLite file, a PostgreSQL database). Contexts ask their storage's backend for
/// connections and never name a backend themselves.
package protocol StoreBackend: Sendable {
    /// The SQL its connections speak.
    var dialect: SQLDialect { get }

    /// A new connection that only reads (the main context, read contexts, a transaction's
    /// fetches of committed data).
    func reader() throws(StrataError) -> any DatabaseConnection

    /// A new connection that writes (an unsafe transaction's own), waiting for the store's write
    /// lock as the storage allows.
    func writer() throws(StrataError) -> any DatabaseConnection

    /// A new probe that finds other stacks' and processes' commits, or nil when there can be
    /// none (a private in-memory store). A probe that is told of commits as they happen rings
    /// `doorbell`, so the watcher polls it at once.
    func commitProbe(doorbell: CommitDoorbell) -> (any CommitProbe)?

    /// Where the row ids of new objects come from when the server hands them out (its writers
    /// run side by side), or nil when the stack counts them itself. Made once per storage.
    func makeRowIDSource() -> (any RowIDSource)?

    /// How many transactions of one stack may write at once: 1 for a store whose writers take
    /// turns (SQLite), the store's setting for one whose writers run side by side.
    var maximumWriters: Int { get }

    /// How long a connection the stack keeps for later (a writer lane's, a parked reader) may sit
    /// unused before it is closed; nil to keep it (a SQLite file's connections cost the server
    /// nothing).
    var idleTimeout: Duration? { get }

    /// Closes what the backend itself holds (not the connections it made, which their users
    /// close), once the stack's writers have closed theirs: the stack is closing. It may wait for
    /// a server, so it is never called on Swift concurrency's threads.
    func close()
}

extension StoreBackend {
    /// The stack counts row ids itself.
    package func makeRowIDSource() -> (any RowIDSource)? { nil }

    /// One writer at a time.
    package var maximumWriters: Int { 1 }

    /// Kept open.
    package var idleTimeout: Duration? { nil }

    /// Holds nothing of its own.
    package func close() {}
}

/// Hands out row ids that no other connection, stack or process is given: blocks the server
/// reserves, kept until used.
package protocol RowIDSource: Sendable {
    /// A run of up to `count` fresh ids of the table named `table` (at least one).
    func reserve(table: String, count: Int64) throws(StrataError) -> Range<Int64>

    /// Closes the connection that reserves ids (the stack is closing); ids already reserved and
    /// not used are skipped.
    func close()
}

/// A SQLite file's connections.
struct SQLiteBackend: StoreBackend {
    /// The path or URI SQLite opens.
    let path: String
    /// How long a write waits for a lock another connection or process holds.
    let busyTimeoutMilliseconds: Int32
    /// Whether the file is a private in-memory store's.
    let isInMemory: Bool

    var dialect: SQLDialect { .sqlite }

    /// A SQLite file tells nobody of its commits: its probe is polled, and rings nothing.
    func commitProbe(doorbell: CommitDoorbell) -> (any CommitProbe)? {
        isInMemory ? nil : SQLiteFileProbe(path: path)
    }

    func reader() throws(StrataError) -> any DatabaseConnection {
        try SQLiteConnection(path: path, readOnly: true)
    }

    func writer() throws(StrataError) -> any DatabaseConnection {
        try SQLiteConnection(path: path, readOnly: false, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    }
}
