import Strata
import Synchronization

/// An instrumentation that keeps every report, with the value its `…Started` returned (a number
/// counted from 1), so tests can check both what was reported and that each end met its start.
public final class RecordingInstrumentation: StackInstrumentation {
    private let state = Mutex<(started: Int, transactions: [(Int, TransactionReport)], reads: [(Int, ReadReport)])>((0, [], []))

    public init() {}

    /// The transactions' reports, each with the number its start handed out.
    public var transactions: [(started: Int, report: TransactionReport)] { state.withLock { $0.transactions } }
    /// The read contexts' reports, each with the number its start handed out.
    public var reads: [(started: Int, report: ReadReport)] { state.withLock { $0.reads } }

    public func transactionStarted() -> (any Sendable)? {
        state.withLock { $0.started += 1; return $0.started }
    }

    public func transactionEnded(_ started: (any Sendable)?, _ report: TransactionReport) {
        state.withLock { $0.transactions.append((started as? Int ?? -1, report)) }
    }

    public func readStarted(_ kind: ReadReport.Kind) -> (any Sendable)? {
        state.withLock { $0.started += 1; return $0.started }
    }

    public func readEnded(_ started: (any Sendable)?, _ report: ReadReport) {
        state.withLock { $0.reads.append((started as? Int ?? -1, report)) }
    }
}
