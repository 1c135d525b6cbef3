import Synchronization

/// The events a monitor produced that one consumer has not taken yet, in order. It never grows
/// without bound: past `limit` pending events, `merge` folds them into one (for a list, the
/// change set from the last state the consumer saw to the newest).
final class EventBuffer<Element: Sendable>: Sendable {
    /// Folds pending events into one, given the last event the consumer took (or the initial one).
    typealias Merge = @Sendable (_ lastTaken: Element?, _ pending: [Element]) -> Element

    private struct State {
        var pending: [Element] = []
        var lastTaken: Element?
        var waiter: CheckedContinuation<Void, Never>?
        var failure: StrataError?
        var isFinished = false
        var isCancelled = false
    }

    private enum Outcome {
        case element(Element)
        case failure(StrataError)
        case end
        case wait
    }

    private let state: Mutex<State>
    private let limit: Int
    private let merge: Merge

    init(limit: Int, initial: Element? = nil, merge: @escaping Merge) {
        self.limit = limit
        self.merge = merge
        state = Mutex(State(lastTaken: initial))
    }

    /// How many events wait for the consumer.
    var pendingCount: Int { state.withLock { $0.pending.count } }

    /// Adds an event for the consumer.
    func send(_ element: Element) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.isFinished, !state.isCancelled else { return nil }
            state.pending.append(element)
            if state.pending.count > limit { state.pending = [merge(state.lastTaken, state.pending)] }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Ends the sequence after the pending events: normally, or by throwing `error`.
    func finish(throwing error: StrataError? = nil) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            state.failure = error
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// The next event, waiting for one; nil once finished or when the task is cancelled.
    func next() async throws(StrataError) -> Element? {
        while true {
            let outcome = state.withLock { state -> Outcome in
                if !state.pending.isEmpty {
                    let element = state.pending.removeFirst()
                    state.lastTaken = element
                    return .element(element)
                }
                if state.isCancelled { return .end }
                if let failure = state.failure {
                    state.failure = nil
                    return .failure(failure)
                }
                return state.isFinished ? .end : .wait
            }
            switch outcome {
            case .element(let element): return element
            case .failure(let error): throw error
            case .end: return nil
            case .wait: await waitForEvent()
            }
        }
    }

    private func waitForEvent() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if !state.pending.isEmpty || state.isFinished || state.isCancelled { return true }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.isCancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}

/// An `AsyncSequence` of a monitor's events, for one consumer. While it (or its iterator) exists
/// it keeps the monitor alive; leaving the loop or cancelling the task ends it, and a monitor
/// nobody else holds then stops. A monitor that fails (its store became unreadable) ends the
/// sequence by throwing the ``StrataError``.
public struct MonitorEvents<Element: Sendable>: AsyncSequence, Sendable {
    /// The error that ends the sequence.
    public typealias Failure = StrataError

    let buffer: EventBuffer<Element>
    /// The monitor, kept alive while the sequence is iterated.
    let owner: any Sendable

    /// Iterates the events.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let buffer: EventBuffer<Element>
        let owner: any Sendable

        /// The next event; nil when the monitor stopped or the task was cancelled.
        public mutating func next() async throws(StrataError) -> Element? {
            try await buffer.next()
        }

        /// The next event; nil when the monitor stopped or the task was cancelled.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(StrataError) -> Element? {
            try await buffer.next()
        }
    }

    /// An iterator over the events.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(buffer: buffer, owner: owner)
    }
}
