import Foundation
import Testing

/// `GET /metrics`: the stack's transactions and reads and Hummingbird's requests, in Prometheus's
/// text format, as a service owner scrapes them.
@Suite("Metrics")
struct MetricsTests {
    @Test func transactionsReadsAndRequestsAreCounted() async throws {
        let server = try ServerProcess(database: try TestBackend.newDatabase())
        let client = HTTPClient(baseURL: server.baseURL)
        #expect(try await client.post("/people", json: ["personID": 1]).status == 201)
        #expect(try await client.post("/people", json: ["personID": 2]).status == 201)
        #expect(try await client.post("/people", json: ["personID": 1]).status == 409)
        #expect(try await client.get("/people").status == 200)

        let text = String(decoding: try await client.get("/metrics").body, as: UTF8.self)
        let lines = Set(text.split(separator: "\n").map(String.init))
        #expect(lines.contains(#"strata_transactions_total{outcome="committed"} 2"#), "\(text)")
        #expect(lines.contains(#"strata_transactions_total{outcome="rolled_back"} 1"#))
        #expect(lines.contains(#"strata_transactions_total{outcome="failed"} 0"#))
        #expect(lines.contains("strata_transaction_conflicts_total 0"))
        #expect(lines.contains(#"strata_reads_total{context="read_context",outcome="ok"} 1"#))
        #expect(lines.contains("strata_transaction_duration_seconds_count 3"))
        #expect(lines.contains("strata_writer_wait_seconds_count 3"))
        #expect(lines.contains(#"strata_read_duration_seconds_count{context="read_context"} 1"#))
        #expect(text.contains("hb_requests"))
    }
}
