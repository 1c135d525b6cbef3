// Left out of builds without the Telemetry trait (see Package.swift).
#if Telemetry
import Foundation
import CoreMetrics
import InMemoryTracing
import MetricsTestKit
import StrataTelemetry
import StrataTestSupport
import Testing
import Tracing
@testable import Strata

/// StrataTelemetry turns the stack's reports into the documented metrics and spans.
@Suite("Telemetry")
@MainActor
struct TelemetryTests {
    private struct Refused: Error {}

    @Test func transactionsAndReadsBecomeMetricsAndSpans() async throws {
        TestLog.install()
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()
        let stack = DataStack(Zoo.schemaHistory, instrumentation: StrataTelemetry(dimensions: [("app", "zoo")], metricsFactory: metrics,
                                                                                    tracer: tracer))
        try stack.addStorageAndWait(freshStore())
        try await stack.perform { transaction in transaction.create(Into<Person>()).name = "Ann" }
        try await stack.perform { transaction in transaction.create(Into<Person>()).name = "Bob" }
        await #expect(throws: Refused.self) { try await stack.perform { _ -> Void in throw Refused() } }
        #expect(try await stack.read { reader in try reader.fetchCount(From<Person>()) } == 2)
        #expect(try stack.fetchCount(From<Person>()) == 2)

        #expect(try metrics.expectCounter("strata_transactions_total", [("app", "zoo"), ("outcome", "committed")]).totalValue == 2)
        #expect(try metrics.expectCounter("strata_transactions_total", [("app", "zoo"), ("outcome", "rolled_back")]).totalValue == 1)
        #expect(try metrics.expectCounter("strata_transactions_total", [("app", "zoo"), ("outcome", "failed")]).totalValue == 0)
        #expect(try metrics.expectCounter("strata_transaction_reruns_total", [("app", "zoo")]).totalValue == 0)
        #expect(try metrics.expectCounter("strata_transaction_conflicts_total", [("app", "zoo")]).totalValue == 0)
        #expect(try metrics.expectTimer("strata_writer_wait_seconds", [("app", "zoo")]).values.count == 3)
        let durations = try metrics.expectTimer("strata_transaction_duration_seconds", [("app", "zoo")]).values
        #expect(durations.count == 3 && durations.allSatisfy { $0 >= 0 })
        #expect(try metrics.expectCounter("strata_reads_total", [("app", "zoo"), ("context", "read_context"), ("outcome", "ok")]).totalValue == 1)
        #expect(try metrics.expectCounter("strata_reads_total", [("app", "zoo"), ("context", "main_context"), ("outcome", "ok")]).totalValue == 1)
        #expect(try metrics.expectTimer("strata_read_duration_seconds", [("app", "zoo"), ("context", "read_context")]).values.count == 1)
        #expect(try metrics.expectTimer("strata_read_duration_seconds", [("app", "zoo"), ("context", "main_context")]).values.count == 1)

        let spans = tracer.finishedSpans
        #expect(spans.map(\.operationName) == ["strata.transaction", "strata.transaction", "strata.transaction", "strata.read", "strata.fetch"])
        #expect(spans[0].attributes["strata.attempts"]?.toSpanAttribute() == 1)
        #expect(spans[0].attributes["strata.conflicts"]?.toSpanAttribute() == 0)
        #expect(spans[0].status == nil)
        #expect(spans[2].status?.code == .error)
        #expect(spans[2].errors.count == 1)
    }

    @Test func withoutABackendItDoesNothing() {
        let idle = StrataTelemetry(metricsFactory: NOOPMetricsHandler.instance, tracer: NoOpTracer())
        #expect(idle.transactionStarted() == nil)
        #expect(idle.readStarted(.readContext) == nil)
        #expect(idle.readStarted(.mainContext) == nil)
        let traced = StrataTelemetry(metricsFactory: NOOPMetricsHandler.instance, tracer: InMemoryTracer())
        #expect(traced.transactionStarted() is any Span)
    }

    @Test func spansAreChildrenOfTheCallersSpan() async throws {
        TestLog.install()
        let tracer = InMemoryTracer()
        let stack = DataStack(Zoo.schemaHistory, instrumentation: StrataTelemetry(metricsFactory: TestMetrics(), tracer: tracer))
        try stack.addStorageAndWait(freshStore())
        let request = tracer.startAnySpan("GET /people", context: .topLevel)
        try await InstrumentationContext.withValue(request.context) {
            try await stack.perform { transaction in transaction.create(Into<Person>()).name = "Ann" }
            _ = try await stack.read { reader in try reader.fetchCount(From<Person>()) }
            _ = try stack.fetchCount(From<Person>())
        }
        request.end()
        let spans = tracer.finishedSpans
        let parent = try #require(spans.first { $0.operationName == "GET /people" })
        let children = spans.filter { $0.operationName.hasPrefix("strata.") }
        #expect(children.map(\.operationName) == ["strata.transaction", "strata.read", "strata.fetch"])
        #expect(children.allSatisfy { $0.parentSpanID == parent.spanID && $0.traceID == parent.traceID })
    }
}
#endif
