import Foundation
import Synchronization

/// Hands every commit's changes to each `DataStack.changes` sequence being iterated.
final class ChangeBroadcaster: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<CommitChanges>.Continuation]>([:])

    /// Whether anyone listens: commits build their `CommitChanges` only then.
    var hasSubscribers: Bool { subscribers.withLock { !$0.isEmpty } }

    /// How many sequences are being iterated.
    var subscriberCount: Int { subscribers.withLock { $0.count } }

    /// A new sequence of the changes of every later commit; it unsubscribes when its iteration ends.
    func subscribe() -> AsyncStream<CommitChanges> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<CommitChanges>.makeStream()
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    /// Delivers one commit's changes to every subscriber. Called under the commit log's lock, so
    /// every subscriber receives commits in the order they were made.
    func publish(_ changes: CommitChanges) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(changes) }
    }

    deinit {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.finish() }
    }
}
