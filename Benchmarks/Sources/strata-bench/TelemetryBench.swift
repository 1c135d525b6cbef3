import Foundation
import Strata
import StrataTelemetry

// `telemetry-2k`: what StrataTelemetry costs an app that bootstraps no metrics or tracing backend.
// 2,000 one-object transactions, one after another, on a SQLite store: `strata` on a stack without
// instrumentation, `strata-telemetry` on one with `StrataTelemetry()` (swift-metrics' and
// swift-distributed-tracing's no-op implementations behind it, as in an app that set up neither).
// Printed: each contender's time and its ratio to `strata`.
enum TelemetryBench {
    static let workload = "telemetry-2k"
    static let contenders = ["strata", "strata-telemetry"]

    /// Runs the transactions; returns the checksum of what they wrote and the milliseconds.
    static func run(_ contender: String) async throws -> (Checksum, Double) {
        let stack = DataStack(Bench.schemaHistory, instrumentation: contender == "strata-telemetry" ? StrataTelemetry() : nil)
        try stack.addStorageAndWait(SQLiteStore(fileURL: URL(fileURLWithPath: Scratch.path("telemetry-\(contender)"))))
        let rows = Array(Row.all.prefix(scaled(2_000)))
        return try await stack.closing { stack in
            let start = ContinuousClock.now
            var checksum = Checksum()
            for row in rows {
                try await stack.perform { transaction in StrataContender.fill(transaction.create(Into<Item>()), from: row) }
                checksum.add(code: row.code, score: row.score)
            }
            return (checksum, milliseconds(ContinuousClock.now - start))
        }
    }
}
