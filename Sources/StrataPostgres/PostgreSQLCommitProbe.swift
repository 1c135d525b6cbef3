// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import Strata
import Synchronization

/// Finds the commits other app servers make to a PostgreSQL database.
///
/// In the ``PostgreSQLStore/ExternalCommits/notified`` mode it listens for the notification every
/// Strata writer sends as it commits, and reads the store's commit count only after one arrived:
/// a poll with nothing new costs no round trip. In the ``PostgreSQLStore/ExternalCommits/polled``
/// mode (for engines without `LISTEN`, such as CockroachDB) every poll reads the count. A
/// connection that was lost is made again at the next poll, and the count is then read whatever
/// was heard, since notifications sent while it was away are gone.
struct PostgreSQLCommitProbe: CommitProbe {
    let backend: PostgreSQLBackend
    private var mode: PostgreSQLStore.ExternalCommits { backend.externalCommits }
    private var connection: PostgreSQLConnection?
    private let heard = CommitHeard()
    private var counts = CommitCountComparison()

    init(backend: PostgreSQLBackend) {
        self.backend = backend
    }

    mutating func poll(knownCount: Int64?) -> CommitProbeFinding {
        do {
            let connection = try connected()
            if mode == .notified, !heard.take() { return .nothing }
            return try counts.read(connection, knownCount: knownCount)
        } catch {
            connection = nil
            heard.raise()
            return .nothing
        }
    }

    /// The probe's connection, made (and listening) again when it was lost.
    private mutating func connected() throws(StrataError) -> PostgreSQLConnection {
        if let connection, !connection.isBroken { return connection }
        connection?.close()
        let fresh = try backend.connect()
        if mode == .notified {
            let heard = self.heard
            try fresh.listenForCommits { heard.raise() }
        }
        heard.raise()
        connection = fresh
        return fresh
    }
}

/// Whether a commit notification arrived since the probe last looked: raised on an event loop,
/// taken by the probe.
private final class CommitHeard: Sendable {
    private let flag = Atomic(false)

    func raise() { flag.store(true, ordering: .releasing) }

    /// Whether it was raised, lowering it.
    func take() -> Bool { flag.exchange(false, ordering: .acquiringAndReleasing) }
}
#endif
