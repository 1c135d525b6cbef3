// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import Strata
import Synchronization

/// Which of a store's read replicas serve the next read, and what a replica must have replayed
/// before it may: every commit this stack made or heard of, and everything a read of this stack
/// has already shown (so nothing it shows goes back in time).
///
/// Reads take the replicas in turn. A replica that cannot be reached, or that is still short of
/// what a read must see after ``maximumLag``, is skipped for ``retryInterval`` and then tried
/// again; one that is no longer in recovery (it was promoted, and may now take writes of its
/// own) is never used again by this stack.
final class ReplicaRouter: Sendable {
    /// The replicas, in the order the store lists them.
    let replicas: [PostgreSQLAddress]
    /// How long a read waits for a replica to replay what it must see.
    let maximumLag: Duration
    /// How long a replica that was down or behind is left out.
    static let retryInterval: Duration = .seconds(5)

    private struct State {
        var next = 0
        var skippedUntil: [Int: ContinuousClock.Instant] = [:]
        var retired: Set<Int> = []
        var required = WALPosition.start
        var primaryUntil: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    init(replicas: [PostgreSQLAddress], maximumLag: Duration) {
        self.replicas = replicas
        self.maximumLag = maximumLag
    }

    /// The replicas a read may try, each once, starting with the one after where the last read
    /// started, so that reads spread across them.
    func candidates() -> [Int] {
        let now = ContinuousClock.now
        return state.withLock { state in
            if let until = state.primaryUntil, now < until { return [] }
            let first = state.next
            state.next = (state.next + 1) % max(1, replicas.count)
            return replicas.indices.map { (first + $0) % replicas.count }.filter { index in
                !state.retired.contains(index) && (state.skippedUntil[index].map { $0 <= now } ?? true)
            }
        }
    }

    /// What a replica must have replayed before it serves a read.
    var required: WALPosition { state.withLock { $0.required } }

    /// Raises what replicas must have replayed to `position` (a commit, or a state a read showed).
    func mustSee(_ position: WALPosition) {
        state.withLock { state in state.required = max(state.required, position) }
    }

    /// Sends every read to the primary for `duration` (a commit's position is unknown).
    func readPrimary(for duration: Duration) {
        state.withLock { state in state.primaryUntil = .now + duration }
    }

    /// Leaves a replica out for ``retryInterval``, saying why in the log.
    func skip(_ index: Int, because reason: String) {
        state.withLock { state in state.skippedUntil[index] = .now + Self.retryInterval }
        StrataDefaults.logger.log(level: .notice, message: "the replica \(replicas[index]) \(reason); reads go elsewhere for "
                                  + "\(Self.retryInterval.components.seconds) s", file: #fileID, line: #line)
    }

    /// Never uses a replica again: it is no longer a standby.
    func retire(_ index: Int) {
        state.withLock { state in _ = state.retired.insert(index) }
        StrataDefaults.logger.log(level: .warning, message: "the replica \(replicas[index]) is no longer a standby (it was "
                                  + "promoted); this stack reads from it no more", file: #fileID, line: #line)
    }
}
#endif
