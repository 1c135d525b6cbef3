import Dispatch
import Synchronization

/// Lets a ``CommitProbe`` that is told of other writers' commits (a PostgreSQL notification)
/// wake the stack's ``ExternalCommitWatcher`` at once, instead of at its next poll.
///
/// A ring is kept until the watcher next waits, so none is lost between two waits; rings while
/// nobody waits count as one. Stopping the watcher rings it too, so its loop ends at once.
package final class CommitDoorbell: Sendable {
    private struct State {
        var rung = false
        var waiter: CheckedContinuation<Bool, Never>?
        /// Tells apart the waits, so a late timeout never resumes a later wait.
        var wait = 0
    }

    private let state = Mutex(State())
    /// Where every doorbell's wait limits run: a serial queue, which gets a thread of its own.
    private static let timers = DispatchQueue(label: "strata.doorbell-timers")

    /// A doorbell nobody has rung.
    package init() {}

    /// Wakes the watcher now, or at the start of its next wait.
    package func ring() {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let waiter = state.waiter else {
                state.rung = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: true)
    }

    /// Returns when the bell rings (at once if it rang since the last wait) or after `limit`,
    /// whichever is first; true when it rang.
    func wait(upTo limit: Duration) async -> Bool {
        await withCheckedContinuation { (waiter: CheckedContinuation<Bool, Never>) in
            let wait = state.withLock { state -> Int? in
                if state.rung {
                    state.rung = false
                    return nil
                }
                state.wait += 1
                state.waiter = waiter
                return state.wait
            }
            guard let wait else { return waiter.resume(returning: true) }
            // Holds the doorbell until then, so a wait always ends. On a queue of its own: the
            // global queues run a few items at a time on Linux, and items there that wait for a
            // server (closing idle connections) would hold the wait past its limit.
            Self.timers.asyncAfter(deadline: .now() + DispatchTimeInterval(limit)) { [self] in
                let expired = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                    guard state.wait == wait, let waiter = state.waiter else { return nil }
                    state.waiter = nil
                    return waiter
                }
                expired?.resume(returning: false)
            }
        }
    }
}
