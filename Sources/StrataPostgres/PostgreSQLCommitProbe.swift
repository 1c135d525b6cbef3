// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import Strata
import Synchronization

/// Finds the commits other app servers make to a PostgreSQL database, so that the main context
/// looks again; what it then re-reads is decided by its snapshots (see `TransactionSnapshot`),
/// so a probe that says too much costs one snapshot, and one that misses a notification (a
/// reconnect) loses nothing.
///
/// In the ``PostgreSQLStore/ExternalCommits/notified`` mode it listens for the notification every
/// Strata writer sends once it has committed, carrying the transaction's id: a poll with nothing
/// heard costs no round trip, and one that heard only this stack's last commit finds nothing. A
/// notification can go missing (its writer died between its commit and the notification), so at
/// least every ``accountingInterval`` a poll reports a commit even when it heard none: the main
/// context then starts a snapshot and accounts for every transaction completed since its last one,
/// re-reading only when one of them was not heard of. In the
/// ``PostgreSQLStore/ExternalCommits/polled`` mode (for engines without `LISTEN`) every poll reads
/// the server's snapshot and finds a commit when transactions completed since the last poll
/// besides this stack's. A connection that was lost is made again at the next poll (a listening
/// one's close rings the doorbell, so that poll comes at once), which then reports a commit,
/// since notifications sent while it was away are gone; a server that cannot be reached is
/// reported as such, so the watcher tries again soon.
struct PostgreSQLCommitProbe: CommitProbe {
    let backend: PostgreSQLBackend
    private var mode: PostgreSQLStore.ExternalCommits { backend.commitDiscovery }
    private var connection: PostgreSQLConnection?
    private let heard = CommitsHeard()
    /// The snapshot of the last poll (polled mode), and this stack's last commit then.
    private var last: (snapshot: TransactionSnapshot, known: Int64?)?
    /// Commits heard of and not yet taken (notified mode).
    private var heardCommits: [HeardCommit] = []
    /// Notices taken from the listener since the last poll, which the next poll reads first.
    private var unpolled: [CommitNotice?] = []
    /// When a poll last reported a commit (notified mode).
    private var lastReported = ContinuousClock.now
    /// The longest a listening probe goes without reporting a commit, so that a notification that
    /// never came delays its commit by this much at most.
    static let accountingInterval = Duration.seconds(5)

    /// Rung as each notification arrives, so the watcher polls at once.
    private let doorbell: CommitDoorbell

    init(backend: PostgreSQLBackend, doorbell: CommitDoorbell) {
        self.backend = backend
        self.doorbell = doorbell
    }

    mutating func poll(knownCount: Int64?) -> CommitProbeFinding {
        do {
            let connection = try connected()
            if mode == .notified {
                let notices = unpolled + heard.take()
                unpolled.removeAll()
                heardCommits += notices.compactMap { $0 }.flatMap(\.heardCommits)
                let heardForeign = notices.contains { notice in
                    guard let notice else { return true }
                    // This stack's own commits, gathered several to a notice, are not foreign.
                    return notice.commitIDs.contains { id in id != knownCount && backend.announcer?.isOwn(id) != true }
                }
                guard heardForeign || ContinuousClock.now - lastReported >= Self.accountingInterval else { return .nothing }
                lastReported = .now
                try replicasMustSeeThePrimary(connection)
                return .foreignCommit
            }
            let snapshot = try connection.snapshotMark()
            defer { last = (snapshot, knownCount) }
            guard let last else { return .nothing }
            let own: Int64 = knownCount != last.known ? 1 : 0
            guard snapshot.completed(since: last.snapshot) > own else { return .nothing }
            try replicasMustSeeThePrimary(connection)
            return .foreignCommit
        } catch {
            connection = nil
            heard.missedSome()
            return .unreachable
        }
    }

    /// With replicas: the commits just found are before the primary's log position now, which the
    /// replicas must replay before the re-read they cause runs there.
    private func replicasMustSeeThePrimary(_ connection: PostgreSQLConnection) throws(StrataError) {
        guard let router = backend.router else { return }
        router.mustSee(try connection.insertPosition())
    }

    mutating func commitsHeardSinceLastPoll() -> [HeardCommit] {
        guard mode == .notified else { return [] }
        unpolled += heard.take()
        return unpolled.compactMap { $0 }.flatMap(\.heardCommits)
    }

    mutating func takeHeardCommits() -> [HeardCommit] {
        defer { heardCommits.removeAll() }
        return heardCommits
    }

    /// The probe's connection, made (and listening) again when it was lost.
    private mutating func connected() throws(StrataError) -> PostgreSQLConnection {
        if let connection, !connection.isBroken { return connection }
        connection?.close()
        let fresh = mode == .notified ? try backend.connectDirectly() : try backend.connectOutsideSchema()
        if mode == .notified {
            let (heard, doorbell) = (self.heard, self.doorbell)
            // A listener the server closed hears nothing more: the watcher polls at once, which
            // connects again and catches up with what was missed.
            try fresh.listenForCommits({ notice in
                heard.add(notice)
                doorbell.ring()
            }, closed: {
                heard.missedSome()
                doorbell.ring()
            })
        }
        heard.missedSome()
        last = nil
        connection = fresh
        return fresh
    }
}

/// The commit notices that arrived since the probe last looked: added on an event loop, taken by
/// the probe. A notification that may have been missed counts as a notice of a commit no stack
/// made.
private final class CommitsHeard: Sendable {
    private let notices = Mutex<[CommitNotice?]>([])

    func add(_ notice: CommitNotice?) { notices.withLock { $0.append(notice) } }

    /// Notes that notifications may have been missed (the connection was lost or is new).
    func missedSome() { add(nil) }

    /// The notices heard, forgetting them; nil for a payload that was not one, or a missed stretch.
    func take() -> [CommitNotice?] { notices.withLock { notices in defer { notices.removeAll() }; return notices } }
}
#endif
