import Dispatch
import Synchronization

/// The lanes a stack's transactions run on, each a serial queue with writer connections of its own.
///
/// A stack whose storages all write side by side (PostgreSQL) runs up to its storages'
/// `maximumWriters` transactions at once, one per lane; any other stack has one lane, its
/// transactions running one after another as SQLite's single writer requires. The first lane also
/// opens storages and holds the connections that opened them.
final class Writer: Sendable {
    /// One serial queue and the writer connections its transactions use.
    // `@unchecked Sendable` is sound: `connections`, the only mutable state, is read and written only
    // by code running on the serial `queue` (every entry point checks it with a dispatch
    // precondition), so no two threads ever touch it at once.
    final class Lane: @unchecked Sendable {
        let queue: DispatchQueue
        let index: Int
        private var connections: [Int32: any DatabaseConnection] = [:]

        init(label: String, index: Int, token: UInt) {
            queue = DispatchQueue(label: index == 0 ? label : "\(label).\(index)")
            self.index = index
            queue.setSpecific(key: Writer.key, value: token)
        }

        /// Records a storage's writer connection. Call on the queue.
        func adopt(_ connection: any DatabaseConnection, for storage: Int32) {
            dispatchPrecondition(condition: .onQueue(queue))
            connections[storage] = connection
        }

        /// Closes the lane's connections (they are made again on next use). Call on the queue.
        func closeConnections() {
            dispatchPrecondition(condition: .onQueue(queue))
            connections.removeAll()
        }

        /// A storage's writer connection on this lane: made by its backend on first use, and again
        /// when it was lost. Call on the queue.
        func connection(for storage: StorageHandle) throws(StrataError) -> any DatabaseConnection {
            dispatchPrecondition(condition: .onQueue(queue))
            if let connection = connections[storage.index], !connection.isBroken { return connection }
            let fresh = try storage.backend.writer()
            connections[storage.index] = fresh
            return fresh
        }
    }

    /// A transaction waiting for a lane.
    private struct Waiter {
        let id: UInt64
        let work: @Sendable (Lane) -> Void
        /// When it stops waiting and runs `timedOut` instead (nil: it waits as long as it takes).
        var deadline: ContinuousClock.Instant?
        var timedOut: @Sendable () -> Void = {}
    }

    private struct State {
        var lanes: [Lane]
        var busy: Set<Int> = []
        var waiting: [Waiter] = []
        var nextWaiter: UInt64 = 0
        /// When each free lane whose connections may be closed was freed.
        var freedAt: [Int: ContinuousClock.Instant] = [:]
    }

    private static let key = DispatchSpecificKey<UInt>()
    private let label: String
    private let token: UInt
    private let state: Mutex<State>
    private let idleSweep = IdleSweep()
    /// Times out waiting transactions: one wake-up pending at a time for all of them, not a
    /// timer per transaction that waits.
    private let waitSweep = IdleSweep()
    /// The lane storages are opened on, and the only one of a stack whose writers take turns.
    let first: Lane

    init(label: String) {
        self.label = label
        let token = UInt.random(in: 1...UInt.max)
        self.token = token
        first = Lane(label: label, index: 0, token: token)
        state = Mutex(State(lanes: [first]))
    }

    /// Whether the caller is running on one of the lanes (inside a transaction).
    var isOnQueue: Bool { DispatchQueue.getSpecific(key: Writer.key) == token }

    /// Runs `work` with a lane no other transaction holds, at once or as soon as one is released,
    /// in the order asked; lanes are made as needed, up to `capacity`. `work` must call
    /// ``release(_:)`` exactly once. With a `timeout`, a transaction still waiting when it ends
    /// runs `timedOut` instead (on a dispatch thread), and never gets a lane. (The transactions
    /// that wait are timed out together, by one wake-up at the earliest deadline; a `timeout`
    /// shorter than the others' waiting meanwhile may end at their wake-up, later. A stack's
    /// transactions all wait for the same busy timeout.)
    func acquire(capacity: Int, timeout: Duration? = nil, _ work: @escaping @Sendable (Lane) -> Void,
                 timedOut: @escaping @Sendable () -> Void = {}) {
        let (lane, waiter) = take(capacity: capacity, deadline: timeout.map { .now + $0 }, timedOut: timedOut, work)
        if let lane { return work(lane) }
        guard let timeout, waiter != nil else { return }
        waitSweep.schedule(after: timeout) { [weak self] in self?.timeOutWaiters() }
    }

    /// Removes the waiting transactions whose deadline passed and runs their `timedOut`; how long
    /// until the next one's deadline (nil: none waits with one).
    private func timeOutWaiters() -> Duration? {
        let now = ContinuousClock.now
        let (expired, next) = state.withLock { state -> ([@Sendable () -> Void], Duration?) in
            var expired: [@Sendable () -> Void] = []
            var next: Duration?
            state.waiting.removeAll { waiter in
                guard let deadline = waiter.deadline else { return false }
                if deadline <= now {
                    expired.append(waiter.timedOut)
                    return true
                }
                next = min(next ?? (deadline - now), deadline - now)
                return false
            }
            return (expired, next)
        }
        for timedOut in expired { timedOut() }
        return next
    }

    /// A free lane (made when there are fewer than `capacity`), or the id `work` waits under.
    private func take(capacity: Int, deadline: ContinuousClock.Instant? = nil, timedOut: @escaping @Sendable () -> Void = {},
                      _ work: @escaping @Sendable (Lane) -> Void) -> (Lane?, UInt64?) {
        state.withLock { state -> (Lane?, UInt64?) in
            if let free = state.lanes.first(where: { $0.index < capacity && !state.busy.contains($0.index) }) {
                state.busy.insert(free.index)
                state.freedAt[free.index] = nil
                return (free, nil)
            }
            if state.lanes.count < capacity {
                let lane = Lane(label: label, index: state.lanes.count, token: token)
                state.lanes.append(lane)
                state.busy.insert(lane.index)
                return (lane, nil)
            }
            state.nextWaiter += 1
            state.waiting.append(Waiter(id: state.nextWaiter, work: work, deadline: deadline, timedOut: timedOut))
            return (nil, state.nextWaiter)
        }
    }

    /// Removes a waiting transaction; false when it was given a lane already.
    private func stopWaiting(_ id: UInt64) -> Bool {
        state.withLock { state in
            guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return false }
            state.waiting.remove(at: index)
            return true
        }
    }

    /// Frees a lane, handing it to the first transaction waiting for one. With `closingAfter`, a
    /// lane that then stays free that long has its connections closed.
    func release(_ lane: Lane, closingAfter idleTimeout: Duration? = nil) {
        let next = state.withLock { state -> (@Sendable (Lane) -> Void)? in
            guard !state.waiting.isEmpty else {
                state.busy.remove(lane.index)
                if idleTimeout != nil { state.freedAt[lane.index] = .now }
                return nil
            }
            return state.waiting.removeFirst().work
        }
        if let next { return next(lane) }
        if let idleTimeout { idleSweep.schedule(after: idleTimeout) { [weak self] in self?.closeIdleLanes(after: idleTimeout) } }
    }

    /// Closes the connections of lanes free for `idleTimeout` or longer (each on its queue, held
    /// meanwhile so no transaction takes it), and returns how long until the next lane would be.
    private func closeIdleLanes(after idleTimeout: Duration) -> Duration? {
        let now = ContinuousClock.now
        let (idle, next) = state.withLock { state -> ([Lane], Duration?) in
            var idle: [Lane] = []
            var next: Duration?
            for (index, freed) in state.freedAt {
                let age = now - freed
                if age >= idleTimeout {
                    idle.append(state.lanes[index])
                    state.busy.insert(index)
                    state.freedAt[index] = nil
                } else {
                    next = min(next ?? idleTimeout, idleTimeout - age)
                }
            }
            return (idle, next)
        }
        for lane in idle {
            lane.queue.async { [self] in
                lane.closeConnections()
                release(lane)
            }
        }
        return next
    }

    /// Closes every lane's connections, each on its queue (the stack is closing: no transaction
    /// runs, and none will).
    func closeAllConnections() async {
        for lane in state.withLock({ $0.lanes }) {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                lane.queue.async {
                    lane.closeConnections()
                    done.resume()
                }
            }
        }
    }

    /// Waits (blocking the caller) for a lane, as ``acquire(capacity:timeout:_:timedOut:)`` gives
    /// it; nil when `timeout` ended first.
    func acquireWaiting(capacity: Int, timeout: Duration) -> Lane? {
        let given = Mutex<Lane?>(nil)
        let semaphore = DispatchSemaphore(value: 0)
        let (lane, waiter) = take(capacity: capacity) { lane in
            given.withLock { $0 = lane }
            semaphore.signal()
        }
        if let lane { return lane }
        if semaphore.wait(timeout: .now() + DispatchTimeInterval(timeout)) == .timedOut, let waiter, stopWaiting(waiter) { return nil }
        // Given a lane meanwhile (perhaps just as the wait ended): it is this caller's.
        if given.withLock({ $0 == nil }) { semaphore.wait() }
        return given.withLock { $0 }
    }
}
