import Dispatch
import Foundation
import Synchronization

/// Notices commits that other stacks and processes make to a stack's store files, and makes the
/// main context (and so every monitor) catch up with them.
///
/// Every `interval` it polls each storage's ``CommitProbe`` (which costs microseconds: a SQLite
/// file's `PRAGMA data_version`, a flag a PostgreSQL notification set), and when a probe finds a
/// commit this stack did not make, the main context catches up on the main actor. A probe that is
/// told of commits (a PostgreSQL notification) rings the watcher's ``CommitDoorbell``, which polls
/// ``spacing`` later instead of at the next interval, so a burst of other servers' commits is
/// caught up with in a few steps rather than one each. The delay is at most one interval (on
/// PostgreSQL with notifications, the notification's own delay and ``spacing``) plus the time the
/// main actor takes.
///
/// A poll that cannot reach a store, or a catch-up that cannot read one, is tried again soon:
/// 100 ms later, then twice as long each time up to 5 s (never longer than the interval), so a
/// server back from a restart is heard from again within seconds, whatever the interval.
final class ExternalCommitWatcher: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)
    /// Rung by probes that hear of commits.
    private let doorbell = CommitDoorbell()
    /// How long after a ring the watcher polls.
    static let spacing = Duration.milliseconds(5)
    /// The longest wait for the first poll, whatever the interval.
    static let firstPoll = Duration.milliseconds(100)
    /// Each storage's probe and its connection; nil once stopped. Polls run under the lock, so
    /// `stop()` closes every connection at once, before the stack's deinit returns.
    private let probes = Mutex<[Int32: any CommitProbe]?>([:])
    private let interval: Duration?
    /// What one poll of every storage found: a commit of another writer, a store that could not
    /// be read, storages whose files moved, and the commits heard of, by storage.
    private typealias Findings = (foreign: Bool, unreachable: Bool, moved: [(Int32, String)], heard: [Int32: [HeardCommit]])
    /// Where polls run (see ``pollOffThePool(_:)``).
    private let queue = DispatchQueue(label: "strata.commit-watcher")
    /// Told after each poll that found commits other writers made (the sync server's live pulls).
    private let listeners = Mutex<[@Sendable () -> Void]>([])

    /// Calls `action` after each poll that finds commits other stacks or processes made.
    func addListener(_ action: @escaping @Sendable () -> Void) {
        listeners.withLock { $0.append(action) }
    }

    /// A watcher that polls every `interval`, or none when nil.
    init(interval: Duration?) {
        self.interval = interval
    }

    /// Starts watching, once: called when the main context first reads a file.
    func start(core: StackCore, main: MainContext) {
        guard let interval else { return }
        task.withLock { task in
            guard task == nil else { return }
            let doorbell = self.doorbell
            task = Task.detached(priority: .utility) { [weak self, weak core, weak main] in
                // The first poll, which starts the probes (a listening one among them), comes one
                // interval after the first read, or 100 ms at most; a stack used for a moment
                // opens no probe.
                var limit = min(interval, Self.firstPoll)
                var retry = RetryDelay(interval: interval)
                // A catch-up that could not read every storage is run again at the next poll,
                // even when that poll finds nothing new: the commits it missed are still owed.
                var owed = false
                while !Task.isCancelled {
                    if await doorbell.wait(upTo: limit) {
                        // The notifications of commits made together arrive one after another:
                        // waiting a moment lets one catch-up take them all, and lets the snapshot
                        // it starts hold only commits already heard of (whose tables are known).
                        try? await Task.sleep(for: Self.spacing)
                    }
                    guard !Task.isCancelled, let self, let core, let main, let findings = await self.pollOffThePool(core) else { return }
                    if findings.foreign || owed { owed = await !main.catchUp(hearing: findings.heard) }
                    if findings.foreign { for listener in self.listeners.withLock({ $0 }) { listener() } }
                    for (storage, file) in findings.moved { await main.stopObservers(of: storage, .storeMoved(file: file)) }
                    // A store that could not be read is tried again soon, not an interval later.
                    limit = findings.unreachable || owed ? retry.next() : retry.reset()
                }
            }
        }
    }

    /// ``poll(_:)`` on the watcher's own queue: a poll may wait for a server (connecting,
    /// listening), which must not hold one of the few threads Swift's tasks share.
    private func pollOffThePool(_ core: StackCore) async -> Findings? {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.poll(core)) }
        }
    }

    /// Polls every file of the stack; nil once stopped.
    private func poll(_ core: StackCore) -> Findings? {
        let storages = core.storages
        return probes.withLock { probes in
            guard probes != nil else { return nil }
            var foreign = false
            var unreachable = false
            var moved: [(Int32, String)] = []
            var heard: [Int32: [HeardCommit]] = [:]
            for storage in storages {
                guard var probe = probes?[storage.index] ?? storage.backend.commitProbe(doorbell: doorbell) else { continue }
                switch probe.poll(knownCount: core.knownCommitCount(storage.index)) {
                case .foreignCommit: foreign = true
                case .moved: moved.append((storage.index, storage.displayName))
                case .unreachable: unreachable = true
                case .nothing: break
                }
                let commits = probe.takeHeardCommits()
                if !commits.isEmpty { heard[storage.index] = commits }
                probes?[storage.index] = probe
            }
            return (foreign, unreachable, moved, heard)
        }
    }

    /// The commits a storage's probe heard of since its last poll (see
    /// ``CommitProbe/commitsHeardSinceLastPoll()``); none while a poll is running, rather than
    /// waiting for it.
    func commitsHeardSinceLastPoll(_ storage: Int32) -> [HeardCommit] {
        let heard = probes.withLockIfAvailable { probes -> [HeardCommit] in probes?[storage]?.commitsHeardSinceLastPoll() ?? [] }
        return heard ?? []
    }

    /// Stops watching (the stack is going away) and closes the watcher's connections now.
    func stop() {
        probes.withLock { $0 = nil }
        task.withLock { $0?.cancel() }
        // A loop waiting for its next poll ends now, not an interval later.
        doorbell.ring()
    }
}

