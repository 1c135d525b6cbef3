import Synchronization

/// Starts asynchronous transactions one at a time, each only after the previous one's completion
/// has run on the main actor, as CoreStore's serial transaction queue does: a completion sees the
/// state its own commit produced, not a later transaction's. (`perform(synchronous:)` and unsafe
/// transactions do not wait here: the caller holds a thread for them.)
final class TransactionGate: Sendable {
    private struct State {
        var isBusy = false
        var waiting: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    /// Starts `work` now when nothing is running, or after everything enqueued before it. `work`
    /// must call ``done()`` exactly once, after its completion has run.
    func enqueue(_ work: @escaping @Sendable () -> Void) {
        let startNow = state.withLock { state -> Bool in
            guard state.isBusy else {
                state.isBusy = true
                return true
            }
            state.waiting.append(work)
            return false
        }
        if startNow { work() }
    }

    /// Marks the running work finished and starts the next.
    func done() {
        let next = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.waiting.isEmpty else {
                state.isBusy = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?()
    }
}
