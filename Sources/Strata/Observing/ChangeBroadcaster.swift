import Foundation
import Synchronization

/// Hands every commit's changes to each `DataStack.changes` sequence being iterated.
final class ChangeBroadcaster: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<CommitChanges>.Continuation]?>([:])

    /// Whether anyone listens: commits build their `CommitChanges` only then.
    var hasSubscribers: Bool { subscribers.withLock { !($0?.isEmpty ?? true) } }

    /// How many sequences are being iterated.
    var subscriberCount: Int { subscribers.withLock { $0?.count ?? 0 } }

    /// A new sequence of the changes of every later commit; it unsubscribes when its iteration
    /// ends. Once the stack is closed, the sequence is empty.
    func subscribe() -> AsyncStream<CommitChanges> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<CommitChanges>.makeStream()
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0?.removeValue(forKey: id) }
        }
        let open = subscribers.withLock { subscribers -> Bool in
            guard subscribers != nil else { return false }
            subscribers?[id] = continuation
            return true
        }
        if !open { continuation.finish() }
        return stream
    }

    /// Ends every sequence, and those made from now on at once (the stack is closed).
    func finishAll() {
        let open = subscribers.withLock { subscribers -> [AsyncStream<CommitChanges>.Continuation] in
            defer { subscribers = nil }
            return Array((subscribers ?? [:]).values)
        }
        for continuation in open { continuation.finish() }
    }

    /// Delivers one commit's changes to every subscriber. Called under the commit log's lock, so
    /// every subscriber receives commits in the order they were made.
    func publish(_ changes: CommitChanges) {
        for continuation in subscribers.withLock({ Array(($0 ?? [:]).values) }) { continuation.yield(changes) }
    }

    deinit {
        finishAll()
    }
}
