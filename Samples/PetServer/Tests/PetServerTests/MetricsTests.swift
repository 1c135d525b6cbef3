import Foundation
import Testing

/// `GET /metrics`: the stack's transactions and reads and Hummingbird's requests, in Prometheus's
/// text format, as a service owner scrapes them.
@Suite("Metrics")
struct MetricsTests {
    @Test func transactionsReadsAndRequestsAreCounted() async throws {
        let server = try ServerProcess(database: try TestBackend.newDatabase())
        let client = HTTPClient(baseURL: server.baseURL)
        // What the server counted before (opening the store, starting sync), to count from.
        let before = try await Self.samples(client)
        #expect(try await client.post("/people", json: ["personID": 1]).status == 201)
        #expect(try await client.post("/people", json: ["personID": 2]).status == 201)
        #expect(try await client.post("/people", json: ["personID": 1]).status == 409)
        #expect(try await client.get("/people").status == 200)

        let after = try await Self.samples(client)
        func counted(_ name: String) -> Double { (after[name] ?? 0) - (before[name] ?? 0) }
        #expect(counted(#"strata_transactions_total{outcome="committed"}"#) == 2, "\(after)")
        #expect(counted(#"strata_transactions_total{outcome="rolled_back"}"#) == 1)
        #expect(after[#"strata_transactions_total{outcome="failed"}"#] == 0)
        #expect(after["strata_transaction_conflicts_total"] == 0)
        #expect(counted(#"strata_reads_total{context="read_context",outcome="ok"}"#) == 1)
        #expect(counted("strata_transaction_duration_seconds_count") == 3)
        #expect(counted("strata_writer_wait_seconds_count") == 3)
        #expect(counted(#"strata_read_duration_seconds_count{context="read_context"}"#) == 1)
        #expect(after.keys.contains { $0.hasPrefix("hb_requests") })
    }

    /// Every sample `GET /metrics` prints, by name and labels.
    static func samples(_ client: HTTPClient) async throws -> [String: Double] {
        let text = String(decoding: try await client.get("/metrics").body, as: UTF8.self)
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            samples[String(line[..<space])] = value
        }
        return samples
    }
}
