import Foundation
import Synchronization

/// Notices commits that other stacks and processes make to a stack's store files, and makes the
/// main context (and so every monitor) catch up with them.
///
/// SQLite has no cross-process notification, and file-system events differ by platform (Linux's
/// inotify, Darwin's kqueue) and say nothing about what was committed. So the watcher polls,
/// which costs microseconds: every `interval` it asks each file's own connection for
/// `PRAGMA data_version`, which changes exactly when another connection committed. It then reads
/// the store's commit count: one this stack made (its count is known) is ignored; any other makes
/// the main context catch up on the main actor. The delay is at most one interval plus the time
/// the main actor takes to run.
final class ExternalCommitWatcher: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)
    /// The watched files and their connections; nil once stopped. Polls run under the lock, so
    /// `stop()` closes every connection at once, before the stack's deinit returns.
    private let files = Mutex<[Int32: WatchedFile]?>([:])
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
                    if findings.foreign { await main.catchUp() }
                    for (storage, file) in findings.moved { await main.stopObservers(of: storage, .storeMoved(file: file)) }
                }
            }
        }
    }

    /// Polls every file of the stack; nil once stopped.
    private func poll(_ core: StackCore) -> (foreign: Bool, moved: [(Int32, String)])? {
        let storages = core.storages.compactMap { storage in storage.backend.watchedFile.map { (storage, $0) } }
        return files.withLock { files in
            guard files != nil else { return nil }
            var foreign = false
            var moved: [(Int32, String)] = []
            for (storage, path) in storages {
                var file = files?[storage.index] ?? WatchedFile(path: path)
                switch file.poll(knownCount: core.knownCommitCount(storage.index)) {
                case .foreignCommit: foreign = true
                case .moved: moved.append((storage.index, storage.displayName))
                case .nothing: break
                }
                files?[storage.index] = file
            }
            return (foreign, moved)
        }
    }

    /// Stops watching (the stack is going away) and closes the watcher's connections now.
    func stop() {
        files.withLock { $0 = nil }
        task.withLock { $0?.cancel() }
    }
}

/// One file a watcher polls, through a read-only connection of its own.
private struct WatchedFile {
    /// What a poll found.
    enum Finding {
        case nothing
        /// A commit this stack did not make landed since the last poll.
        case foreignCommit
        /// The file was deleted, renamed or replaced (reported once).
        case moved
    }

    let path: String
    var connection: SQLiteConnection?
    var dataVersion: Int64?
    var lastCount: Int64?
    var hasMoved = false

    init(path: String) {
        self.path = path
    }

    /// Polls the file. One that cannot be read is tried again at the next poll (the main
    /// context reports its errors).
    mutating func poll(knownCount: Int64?) -> Finding {
        guard !hasMoved else { return .nothing }
        if connection == nil, !FileManager.default.fileExists(atPath: path) {
            // Gone before this watcher first opened it.
            hasMoved = true
            return .moved
        }
        do {
            let connection = try connection ?? SQLiteConnection(path: path, readOnly: true)
            self.connection = connection
            if connection.fileHasMoved {
                hasMoved = true
                return .moved
            }
            let statement = try connection.cachedStatement("PRAGMA data_version")
            defer { statement.reset() }
            guard try statement.step() else { return .nothing }
            let version = statement.row.int64(0)
            guard version != dataVersion else { return .nothing }
            dataVersion = version
            let count = try ObjectContext.commitCount(connection)
            defer { lastCount = count }
            return count != knownCount && count != lastCount ? .foreignCommit : .nothing
        } catch {
            connection = nil
            return .nothing
        }
    }
}
