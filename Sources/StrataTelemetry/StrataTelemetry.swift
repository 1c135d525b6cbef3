// Compiled with the Telemetry trait only (which the PostgreSQL trait turns on; see Package.swift).
#if Telemetry
import Metrics
import Strata
import Tracing

/// A stack's transactions and reads as swift-metrics metrics and
/// swift-distributed-tracing spans: `DataStack(Model.schemaHistory, instrumentation: StrataTelemetry())`.
///
/// Metrics (each name starts with `prefix`, `strata` unless given, and carries `dimensions`):
///
/// | Name | Kind | What |
/// | --- | --- | --- |
/// | `strata_transactions_total` | counter, `outcome` = `committed`, `rolled_back` or `failed` | transactions ended |
/// | `strata_transaction_reruns_total` | counter | closure runs past each transaction's first (after conflicts) |
/// | `strata_transaction_conflicts_total` | counter | serialization failures and deadlocks met |
/// | `strata_writer_wait_seconds` | timer | time each transaction waited for a free writer (the pool) |
/// | `strata_transaction_duration_seconds` | timer | time from asking for a transaction to its end |
/// | `strata_reads_total` | counter, `context` = `read_context` or `main_context`, `outcome` = `ok` or `failed` | reads ended: read contexts, and the main context's fetches and queries |
/// | `strata_read_duration_seconds` | timer, `context` as above | time from asking for a read to its end |
///
/// Spans: `strata.transaction`, `strata.read` (a read context) and `strata.fetch` (a fetch or query
/// of the main context), children of the caller's span (the task-local context where `perform`,
/// `read` or the fetch was called), with the attributes `strata.attempts`,
/// `strata.conflicts` and `strata.writer_wait_ms` on transactions, and the error recorded (status
/// error) when one did not commit or return.
///
/// The metrics factory and the tracer are taken when the value is made: make it after
/// `MetricsSystem.bootstrap` and `InstrumentationSystem.bootstrap`. With neither bootstrapped it
/// does nothing (`telemetry-2k` in `Benchmarks/` measures what is left: reading the clock).
public struct StrataTelemetry: StackInstrumentation {
    /// Where spans go; nil when there is no tracer (swift-distributed-tracing's no-op one).
    private let tracer: (any Tracer)?
    /// The metrics; nil when the factory is swift-metrics' no-op one.
    private let metrics: Instruments?

    /// The counters and timers, made once.
    private struct Instruments: Sendable {
        let committed: Counter
        let rolledBack: Counter
        let failed: Counter
        let reruns: Counter
        let conflicts: Counter
        let writerWait: Timer
        let transactionDuration: Timer
        let readContexts: Reads
        let mainContextReads: Reads
    }

    /// The counters and timer of one kind of read.
    private struct Reads: Sendable {
        let returned: Counter
        let failed: Counter
        let duration: Timer
    }

    /// Telemetry with metric names starting with `prefix`, each carrying `dimensions` (such as
    /// the app server's name), made by `metricsFactory` (the bootstrapped one unless given), and
    /// spans from `tracer` (the bootstrapped one unless given). Both are taken when the value is
    /// made: with neither bootstrapped (swift-metrics' and swift-distributed-tracing's no-op
    /// implementations), it does nothing at all.
    public init(prefix: String = "strata", dimensions: [(String, String)] = [], metricsFactory: (any MetricsFactory)? = nil,
                tracer: (any Tracer)? = nil) {
        let factory = metricsFactory ?? MetricsSystem.factory
        func counter(_ name: String, outcome: String? = nil) -> Counter {
            Counter(label: "\(prefix)_\(name)", dimensions: dimensions + (outcome.map { [("outcome", $0)] } ?? []), factory: factory)
        }
        func timer(_ name: String, context: String? = nil) -> Timer {
            Timer(label: "\(prefix)_\(name)", dimensions: dimensions + (context.map { [("context", $0)] } ?? []), factory: factory)
        }
        func reads(_ kind: ReadReport.Kind) -> Reads {
            let context = [("context", kind.rawValue)]
            return Reads(returned: Counter(label: "\(prefix)_reads_total", dimensions: dimensions + context + [("outcome", "ok")], factory: factory),
                         failed: Counter(label: "\(prefix)_reads_total", dimensions: dimensions + context + [("outcome", "failed")], factory: factory),
                         duration: timer("read_duration_seconds", context: kind.rawValue))
        }
        let chosen = tracer ?? InstrumentationSystem.tracer
        self.tracer = chosen is NoOpTracer ? nil : chosen
        metrics = factory is NOOPMetricsHandler ? nil : Instruments(
            committed: counter("transactions_total", outcome: TransactionReport.Outcome.committed.rawValue),
            rolledBack: counter("transactions_total", outcome: TransactionReport.Outcome.rolledBack.rawValue),
            failed: counter("transactions_total", outcome: TransactionReport.Outcome.failed.rawValue),
            reruns: counter("transaction_reruns_total"),
            conflicts: counter("transaction_conflicts_total"),
            writerWait: timer("writer_wait_seconds"),
            transactionDuration: timer("transaction_duration_seconds"),
            readContexts: reads(.readContext),
            mainContextReads: reads(.mainContext))
    }

    /// Starts a span under the caller's; nil without a tracer.
    private func span(_ name: String) -> (any Sendable)? {
        tracer?.startAnySpan(name, context: .current ?? .topLevel, ofKind: .internal)
    }

    /// Starts the `strata.transaction` span.
    public func transactionStarted() -> (any Sendable)? {
        span("strata.transaction")
    }

    /// Counts the transaction and ends its span.
    public func transactionEnded(_ started: (any Sendable)?, _ report: TransactionReport) {
        if let metrics {
            switch report.outcome {
            case .committed: metrics.committed.increment()
            case .rolledBack: metrics.rolledBack.increment()
            case .failed: metrics.failed.increment()
            }
            if report.attempts > 1 { metrics.reruns.increment(by: report.attempts - 1) }
            if report.conflicts > 0 { metrics.conflicts.increment(by: report.conflicts) }
            metrics.writerWait.record(duration: report.writerWait)
            metrics.transactionDuration.record(duration: report.duration)
        }
        guard let span = started as? any Span else { return }
        span.attributes["strata.attempts"] = report.attempts
        span.attributes["strata.conflicts"] = report.conflicts
        span.attributes["strata.writer_wait_ms"] = Self.milliseconds(report.writerWait)
        Self.end(span, error: report.error)
    }

    /// Starts the `strata.read` span (a read context) or the `strata.fetch` span (a main-context
    /// fetch or query).
    public func readStarted(_ kind: ReadReport.Kind) -> (any Sendable)? {
        span(kind == .readContext ? "strata.read" : "strata.fetch")
    }

    /// Counts the read and ends its span.
    public func readEnded(_ started: (any Sendable)?, _ report: ReadReport) {
        if let metrics {
            let reads = report.kind == .readContext ? metrics.readContexts : metrics.mainContextReads
            (report.error == nil ? reads.returned : reads.failed).increment()
            reads.duration.record(duration: report.duration)
        }
        guard let span = started as? any Span else { return }
        Self.end(span, error: report.error)
    }

    private static func end(_ span: any Span, error: StrataError?) {
        if let error {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error, message: error.description))
        }
        span.end()
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}
#endif
