/// How many times a transaction's closure ran, and how many conflicts it met.
struct TransactionTally: Sendable {
    var attempts = 1
    var conflicts = 0
}

/// A piece of work being measured for a stack's ``StackInstrumentation``: made where the work is
/// asked for (nil without an instrumentation, so a stack without one measures nothing), with what
/// the instrumentation's start returned, and ended once.
struct InstrumentedWork: Sendable {
    let instrumentation: any StackInstrumentation
    let started: (any Sendable)?
    /// Where a read runs (unused for a transaction).
    var readKind = ReadReport.Kind.readContext
    let asked = ContinuousClock.now

    /// A transaction's measure.
    static func transaction(_ instrumentation: (any StackInstrumentation)?) -> InstrumentedWork? {
        instrumentation.map { InstrumentedWork(instrumentation: $0, started: $0.transactionStarted()) }
    }

    /// A read's measure.
    static func read(_ instrumentation: (any StackInstrumentation)?, _ kind: ReadReport.Kind) -> InstrumentedWork? {
        instrumentation.map { InstrumentedWork(instrumentation: $0, started: $0.readStarted(kind), readKind: kind) }
    }

    /// Reports the transaction's end: `laneAt` is when it got a writer (nil: it never did).
    func endTransaction<T>(_ result: Result<T, StrataError>, tally: TransactionTally, laneAt: ContinuousClock.Instant?) {
        let now = ContinuousClock.now
        let error: StrataError?
        let outcome: TransactionReport.Outcome
        switch result {
        case .success:
            (error, outcome) = (nil, .committed)
        case .failure(let failure):
            switch failure {
            case .userError, .userCancelled: (error, outcome) = (failure, .rolledBack)
            default: (error, outcome) = (failure, .failed)
            }
        }
        instrumentation.transactionEnded(started, TransactionReport(outcome: outcome, error: error, attempts: tally.attempts,
                                                                    conflicts: tally.conflicts, writerWait: (laneAt ?? now) - asked,
                                                                    duration: now - asked))
    }

    /// Reports a read's end.
    func endRead<T>(_ result: Result<T, StrataError>) {
        let error: StrataError? = if case .failure(let failure) = result { failure } else { nil }
        instrumentation.readEnded(started, ReadReport(kind: readKind, error: error, duration: .now - asked))
    }
}
