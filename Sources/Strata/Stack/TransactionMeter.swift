/// How many times a transaction's closure ran, and how many conflicts it met.
struct TransactionTally: Sendable {
    var attempts = 1
    var conflicts = 0
}

/// Measures one transaction for a stack's ``StackInstrumentation``: made where the transaction is
/// asked for (nil without an instrumentation, so a stack without one measures nothing), ended
/// once with its result.
struct TransactionMeter: Sendable {
    let instrumentation: any StackInstrumentation
    let started: (any Sendable)?
    let asked = ContinuousClock.now

    init?(_ instrumentation: (any StackInstrumentation)?) {
        guard let instrumentation else { return nil }
        self.instrumentation = instrumentation
        started = instrumentation.transactionStarted()
    }

    /// Reports the transaction's end: `laneAt` is when it got a writer (nil: it never did).
    func end<T>(_ result: Result<T, StrataError>, tally: TransactionTally, laneAt: ContinuousClock.Instant?) {
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
}

/// Measures one read context for a stack's ``StackInstrumentation``, like ``TransactionMeter``.
struct ReadMeter: Sendable {
    let instrumentation: any StackInstrumentation
    let started: (any Sendable)?
    let asked = ContinuousClock.now

    init?(_ instrumentation: (any StackInstrumentation)?) {
        guard let instrumentation else { return nil }
        self.instrumentation = instrumentation
        started = instrumentation.readStarted()
    }

    /// Reports the read's end.
    func end<T>(_ result: Result<T, StrataError>) {
        let error: StrataError? = if case .failure(let failure) = result { failure } else { nil }
        instrumentation.readEnded(started, ReadReport(error: error, duration: .now - asked))
    }
}
