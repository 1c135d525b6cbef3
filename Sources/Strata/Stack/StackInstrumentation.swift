/// Receives what a stack's transactions and reads cost, for metrics and tracing: give one
/// to ``DataStack/init(_:externalCommitCheckInterval:observesObjects:instrumentation:)``.
/// `StrataTelemetry` (in the package's `Telemetry` trait) is one over swift-metrics and
/// swift-distributed-tracing. A stack without one reports nothing and pays one test per
/// transaction.
///
/// `…Started` is called synchronously where the work is asked for (in the caller's task, so a
/// tracer can read the caller's task-local context), and its value is handed back to `…Ended`
/// when the work is over, on whichever thread finished it. The methods must return quickly and
/// must not use the stack.
public protocol StackInstrumentation: Sendable {
    /// A transaction was asked for (`perform`, in any of its forms); returns what
    /// ``transactionEnded(_:_:)`` gets back, such as a span.
    func transactionStarted() -> (any Sendable)?
    /// The transaction ended: committed, rolled back or failed.
    func transactionEnded(_ started: (any Sendable)?, _ report: TransactionReport)
    /// A read was asked for: a read context (``DataStack/read(_:)``), or a fetch or query of the
    /// main context (`stack.fetchAll`, `stack.queryValue`, ...); returns what
    /// ``readEnded(_:_:)`` gets back.
    func readStarted(_ kind: ReadReport.Kind) -> (any Sendable)?
    /// The read ended.
    func readEnded(_ started: (any Sendable)?, _ report: ReadReport)
}

extension StackInstrumentation {
    /// Keeps nothing.
    public func transactionStarted() -> (any Sendable)? { nil }
    /// Ignores the report.
    public func transactionEnded(_ started: (any Sendable)?, _ report: TransactionReport) {}
    /// Keeps nothing.
    public func readStarted(_ kind: ReadReport.Kind) -> (any Sendable)? { nil }
    /// Ignores the report.
    public func readEnded(_ started: (any Sendable)?, _ report: ReadReport) {}
}

/// What one transaction did and cost.
public struct TransactionReport: Sendable, Equatable {
    /// How a transaction ended.
    public enum Outcome: String, Sendable, Equatable {
        /// Its changes were committed.
        case committed
        /// Its closure threw (or cancelled it): nothing was saved.
        case rolledBack = "rolled_back"
        /// The store failed it (a conflict that outlasted every re-run, a lost connection, a
        /// constraint, no writer free within the busy timeout): nothing was saved.
        case failed
    }

    /// How it ended.
    public var outcome: Outcome
    /// The error it ended with; nil when committed.
    public var error: StrataError?
    /// How many times its closure ran: 1, plus one for each re-run after a conflict.
    public var attempts: Int
    /// How many serialization failures or deadlocks it met (each made it run again, but for
    /// the last when it failed with ``StrataError/transactionConflict(code:message:attempts:)``).
    public var conflicts: Int
    /// How long it waited for a free writer (a pooled connection) before it started.
    public var writerWait: Duration
    /// How long it took, from being asked for to its end (waiting included).
    public var duration: Duration

    /// A report.
    public init(outcome: Outcome, error: StrataError?, attempts: Int, conflicts: Int, writerWait: Duration, duration: Duration) {
        self.outcome = outcome
        self.error = error
        self.attempts = attempts
        self.conflicts = conflicts
        self.writerWait = writerWait
        self.duration = duration
    }
}

/// What one read did and cost.
public struct ReadReport: Sendable, Equatable {
    /// Where a read ran.
    public enum Kind: String, Sendable, Equatable {
        /// A read context (``DataStack/read(_:)``), off the main actor.
        case readContext = "read_context"
        /// A fetch or query of the main context, on the main actor.
        case mainContext = "main_context"
    }

    /// Where it ran.
    public var kind: Kind
    /// The error it ended with (its closure's, or the store's); nil when it returned.
    public var error: StrataError?
    /// How long it took, from being asked for to its end.
    public var duration: Duration

    /// A report.
    public init(kind: Kind, error: StrataError?, duration: Duration) {
        self.kind = kind
        self.error = error
        self.duration = duration
    }
}
