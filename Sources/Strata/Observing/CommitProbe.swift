/// Finds the commits other stacks and processes make to one storage, for the stack's
/// ``ExternalCommitWatcher``. Each backend knows the cheapest way to ask: a SQLite file's data
/// version, a PostgreSQL notification.
///
/// A probe is polled from one task at a time, under the watcher's lock.
package protocol CommitProbe {
    /// Looks once. `knownCount` is the store's commit count after this stack's last commit (nil
    /// before it made one), so a count that matches it is this stack's own commit.
    mutating func poll(knownCount: Int64?) -> CommitProbeFinding

    /// The commits the polls so far heard of, with the tables each changed, forgetting them: for
    /// a server whose writers run side by side, so a snapshot that holds only such commits
    /// reads again only those tables' objects. Empty for other stores.
    mutating func takeHeardCommits() -> [HeardCommit]

    /// The commits heard of since the last poll, without taking them from that poll (which still
    /// reports them): for a snapshot that starts before the poll, so that it knows the tables of
    /// the commits whose notifications have arrived meanwhile.
    mutating func commitsHeardSinceLastPoll() -> [HeardCommit]
}

extension CommitProbe {
    /// Heard of none.
    package mutating func takeHeardCommits() -> [HeardCommit] { [] }

    /// Heard of none.
    package mutating func commitsHeardSinceLastPoll() -> [HeardCommit] { [] }
}

/// A commit a probe heard of: its transaction's id and the names of the tables whose rows it
/// changed (nil when unknown: then everything is read again).
package struct HeardCommit: Sendable, Equatable {
    /// The committed transaction's id.
    package let id: Int64
    /// The tables the commit changed, by name; nil when unknown.
    package let tables: [String]?

    /// A heard commit.
    package init(id: Int64, tables: [String]?) {
        self.id = id
        self.tables = tables
    }
}

/// What one poll of a ``CommitProbe`` found.
package enum CommitProbeFinding: Sendable, Equatable {
    /// Nothing new.
    case nothing
    /// The store could not be read this time (its server is down, the connection was lost, the
    /// file is locked): the watcher looks again soon rather than an interval later.
    case unreachable
    /// A commit this stack did not make landed since the last poll.
    case foreignCommit
    /// The store's file was deleted, renamed or replaced (reported once).
    case moved
}

/// The part of a probe of a store that counts its commits (SQLite's; a server whose writers run
/// side by side marks them with transaction ids instead): compares the store's commit count with
/// the last one seen and with this stack's own.
package struct CommitCountComparison: Sendable {
    /// The count the last read found.
    private var lastCount: Int64?

    /// A comparison that has seen nothing yet.
    package init() {}

    /// Reads the count through `connection` and says whether a foreign commit explains it.
    package mutating func read(_ connection: any DatabaseConnection, knownCount: Int64?) throws(StrataError) -> CommitProbeFinding {
        let count = try ObjectContext.commitCount(connection)
        defer { lastCount = count }
        return count != knownCount && count != lastCount ? .foreignCommit : .nothing
    }
}
