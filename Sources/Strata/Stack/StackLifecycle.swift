import Synchronization

/// Whether a stack still takes work, and how much of what it took is unfinished: what
/// ``DataStack/close()`` waits for before it closes the stack's connections.
///
/// Each piece of work (a transaction, from the call that asks for it until its completion has
/// run; a read context; adding a storage; an unsafe transaction's commit) is admitted with
/// ``admit()`` and ended with ``finish()``. Once closing has begun, nothing more is admitted.
final class StackLifecycle: Sendable {
    private struct State {
        var isClosing = false
        var isClosed = false
        var running = 0
        /// Callers of ``untilIdle()`` waiting for the running work to end.
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        /// The closing itself, started by the first call of `DataStack.close()`.
        var closing: Task<Void, Never>?
    }

    private let state = Mutex(State())
    /// The stack's model, for the error that refuses work.
    private let model: String

    init(model: String) {
        self.model = model
    }

    /// The error that refuses work once the stack is closing.
    var refusal: StrataError { .stackClosed(model: model) }

    /// Admits a piece of work, which must call ``finish()`` once when it has ended; throws
    /// ``StrataError/stackClosed(model:)`` once closing has begun.
    func admit() throws(StrataError) {
        let admitted = state.withLock { state -> Bool in
            guard !state.isClosing else { return false }
            state.running += 1
            return true
        }
        guard admitted else { throw refusal }
    }

    /// Ends a piece of work that ``admit()`` admitted.
    func finish() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.running -= 1
            guard state.isClosing, state.running == 0 else { return [] }
            defer { state.idleWaiters = [] }
            return state.idleWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Throws ``StrataError/stackClosed(model:)`` once closing has begun.
    func refuseIfClosing() throws(StrataError) {
        if state.withLock({ $0.isClosing }) { throw refusal }
    }

    /// Whether the stack's connections are closed (or being closed): nothing may open new ones.
    var isClosed: Bool { state.withLock { $0.isClosed } }

    /// The closing: the one the first caller started with `close`, which runs it once the work
    /// admitted before has ended. Every later caller gets the same task.
    func closing(_ close: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        state.withLock { current in
            if let closing = current.closing { return closing }
            current.isClosing = true
            let closing = Task { [self] in
                await untilIdle()
                state.withLock { $0.isClosed = true }
                await close()
            }
            current.closing = closing
            return closing
        }
    }

    /// Returns once no admitted work is running (closing has begun, so none can start).
    private func untilIdle() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                guard state.running > 0 else { return true }
                state.idleWaiters.append(waiter)
                return false
            }
            if idle { waiter.resume() }
        }
    }
}
