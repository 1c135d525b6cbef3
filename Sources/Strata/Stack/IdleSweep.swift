import Dispatch
import Synchronization

/// Wakes up to sweep what waited long enough (connections left idle, transactions waiting for a
/// lane past their busy timeout): at most one wake-up pending at a time, so a stack that runs
/// thousands of transactions a second schedules one, not one per transaction.
package final class IdleSweep: Sendable {
    private let pending = Mutex(false)
    /// Where this owner's sweeps run: a serial queue of its own, since a sweep waits for servers,
    /// and a global queue (a few threads on Linux) or another stack's queue held by a server that
    /// does not answer would hold up everything else queued there.
    private let sweeps = DispatchQueue(label: "strata.idle-sweeps")

    /// A sweep with nothing pending.
    package init() {}

    /// Runs `sweep` after `delay`, unless a run is already pending; `sweep` ends what has waited
    /// long enough and returns how long until the next would have (nil: none left).
    /// It runs on a dispatch thread, since closing a connection waits for the server's goodbye.
    /// `sweep` should hold its owner weakly: the wake-up must not keep a stack's connections
    /// alive after the stack is gone.
    package func schedule(after delay: Duration, _ sweep: @escaping @Sendable () -> Duration?) {
        let first = pending.withLock { pending in
            defer { pending = true }
            return !pending
        }
        guard first else { return }
        Task.detached { [self] in
            var wait = delay
            while true {
                try? await Task.sleep(for: wait)
                pending.withLock { $0 = false }
                let swept: Duration? = await withCheckedContinuation { continuation in
                    sweeps.async { continuation.resume(returning: sweep()) }
                }
                guard let next = swept else { return }
                // Another release may have scheduled a run meanwhile: that one goes on instead.
                guard pending.withLock({ pending in defer { pending = true }; return !pending }) else { return }
                wait = next
            }
        }
    }
}
