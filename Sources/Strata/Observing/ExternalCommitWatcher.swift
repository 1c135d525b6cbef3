import Foundation
import Synchronization

/// Notices commits that other stacks and processes make to a stack's store files, and makes the
/// main context (and so every monitor) catch up with them.
///
/// Every `interval` it polls each storage's ``CommitProbe`` (which costs microseconds: a SQLite
/// file's `PRAGMA data_version`, a flag a PostgreSQL notification set), and when a probe finds a
/// commit this stack did not make, the main context catches up on the main actor. The delay is at
/// most one interval plus the time the main actor takes to run.
final class ExternalCommitWatcher: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)
    /// Each storage's probe and its connection; nil once stopped. Polls run under the lock, so
    /// `stop()` closes every connection at once, before the stack's deinit returns.
    private let probes = Mutex<[Int32: any CommitProbe]?>([:])
    private let interval: Duration?

    /// A watcher that polls every `interval`, or none when nil.
    init(interval: Duration?) {
        self.interval = interval
    }

    /// Starts watching, once: called when the main context first reads a file.
    func start(core: StackCore, main: MainContext) {
        guard let interval else { return }
        task.withLock { task in
            guard task == nil else { return }
            task = Task.detached(priority: .utility) { [weak self, weak core, weak main] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard let self, let core, let main, let findings = self.poll(core) else { return }
                    if findings.foreign { await main.catchUp(hearing: findings.heard) }
                    for (storage, file) in findings.moved { await main.stopObservers(of: storage, .storeMoved(file: file)) }
                }
            }
        }
    }

    /// Polls every file of the stack; nil once stopped.
    private func poll(_ core: StackCore) -> (foreign: Bool, moved: [(Int32, String)], heard: [Int32: [HeardCommit]])? {
        let storages = core.storages
        return probes.withLock { probes in
            guard probes != nil else { return nil }
            var foreign = false
            var moved: [(Int32, String)] = []
            var heard: [Int32: [HeardCommit]] = [:]
            for storage in storages {
                guard var probe = probes?[storage.index] ?? storage.backend.commitProbe() else { continue }
                switch probe.poll(knownCount: core.knownCommitCount(storage.index)) {
                case .foreignCommit: foreign = true
                case .moved: moved.append((storage.index, storage.displayName))
                case .nothing: break
                }
                let commits = probe.takeHeardCommits()
                if !commits.isEmpty { heard[storage.index] = commits }
                probes?[storage.index] = probe
            }
            return (foreign, moved, heard)
        }
    }

    /// Stops watching (the stack is going away) and closes the watcher's connections now.
    func stop() {
        probes.withLock { $0 = nil }
        task.withLock { $0?.cancel() }
    }
}

