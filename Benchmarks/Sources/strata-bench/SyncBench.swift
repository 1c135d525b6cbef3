import CBenchSQLite
import Foundation
import Strata
import StrataCloud
import StrataSyncServer

// Sync's workloads, each in one run beside its reference:
// - `sync-commit`: 1,000 one-object inserts, then 1,000 one-attribute updates, each its own
//   commit, to a CloudStore and to a SQLiteStore (the ratio's goal: 1.3 at most);
// - `sync-initial-100k`: a new device's first sync of 100,000 objects, beside a hand-written minimum
//   (a SELECT of the server's rows a page at a time, JSON both ways, inserts with one prepared
//   statement in a transaction per page into the model's table and its two indexes), in rows per
//   second, with the rise of peak memory;
// - `sync-push-10k`: pushing 10,000 local changes;
// - `sync-latency`: from the start of a server commit to a live device's list monitor showing it,
//   median and 99th percentile over 200 commits.
// Requests go to the SyncServer in this process as bytes (JSON encoded and decoded both ways, as
// over HTTP); the socket is left out of every contender alike.
enum SyncBench {
    static let workloads = ["sync-commit", "sync-initial-100k", "sync-push-10k", "sync-latency"]
    static let commits = scaled(1_000)
    static let initialSize = scaled(100_000)
    static let pushSize = scaled(10_000)
    static let latencyCommits = max(3, scaled(200))

    /// The benchmark's model with its entity synced.
    static let schemaHistory: SchemaHistory = {
        let item = Bench.v1.entities[0]
        let synced = EntityDescription(item.name, attributes: item.attributes, sync: true)
        return SchemaHistory(model: "BenchSync", versions: [ModelVersion("V1", entities: [synced], versionLock: ["Item": [1, 2, 3, 4]])],
                             migrationChain: ["V1"], current: "V1", entityTypes: [Item.self])
    }()

    /// Requests straight to a SyncServer in this process, as bytes.
    struct DirectTransport: CloudTransport {
        let server: SyncServer
        func post(_ url: URL, body: Data, token: String, timeout: Duration) async throws -> (status: Int, body: Data) {
            let answer = await server.respond(method: "POST", path: url.path, mountedAt: "/sync", authorization: "Bearer " + token, body: Array(body))
            return (answer.status, Data(answer.body))
        }
    }

    /// A server stack over a new file holding `rows`, with its sync server.
    static func server(_ rows: [Row]) async throws -> (DataStack, SyncServer, String) {
        let stack = DataStack(schemaHistory, externalCommitCheckInterval: nil)
        let path = Scratch.path("sync-server")
        try await stack.addStorage(SQLiteStore(fileURL: URL(fileURLWithPath: path)))
        for start in stride(from: 0, to: rows.count, by: 10_000) {
            try await stack.perform { transaction in
                for row in rows[start..<min(start + 10_000, rows.count)] { StrataContender.fill(transaction.create(Into<Item>()), from: row) }
            }
        }
        let server = try await SyncServer(stack: stack) { $0 == "bench" ? "bench" : nil }
        return (stack, server, path)
    }

    /// A device's stack over a new file; with `server`, its store syncs with it (when asked, or live).
    static func device(_ server: SyncServer?, live: Bool = false) async throws -> (DataStack, CloudStore?) {
        let stack = DataStack(schemaHistory, externalCommitCheckInterval: nil)
        let file = URL(fileURLWithPath: Scratch.path("sync-device"))
        guard let server else {
            try await stack.addStorage(SQLiteStore(fileURL: file))
            return (stack, nil)
        }
        let store = CloudStore(fileURL: file, server: URL(string: "http://bench/sync")!, contentName: "BenchSync", account: .bearer("bench"),
                               cloudStorageOptions: live ? [] : [.syncOnlyWhenAsked], transport: DirectTransport(server: server))
        try await stack.addStorage(store)
        return (stack, store)
    }

    /// Runs the sync workloads asked for, printing their figures; false when results differed.
    @MainActor
    static func run(_ workloads: [String]) async throws -> Bool {
        var failed = false
        if workloads.contains("sync-commit") { failed = try await commitWorkload() || failed }
        if workloads.contains("sync-initial-100k") { failed = try await initialSyncWorkload() || failed }
        if workloads.contains("sync-push-10k") { failed = try await pushWorkload() || failed }
        if workloads.contains("sync-latency") { failed = try await latencyWorkload() || failed }
        return !failed
    }

    // MARK: Local commits

    @MainActor
    static func commitWorkload() async throws -> Bool {
        let rows = (0..<commits).map(Row.make)
        var timings: [String: [Double]] = [:]
        var counts: [String: Int] = [:]
        for _ in 0..<rounds {
            for contender in ["sqlite", "cloud"] {
                // Both contenders start alike: a server is set up for each (its new file is
                // still being written back while the commits run), and only the CloudStore is
                // given it. It is never asked: the commits alone are timed.
                let server = try await Self.server([])
                let (stack, _) = try await device(contender == "cloud" ? server.1 : nil)
                let start = ContinuousClock.now
                var ids: [ObjectID<Item>] = []
                for row in rows {
                    ids.append(try await stack.perform { transaction in
                        let item = transaction.create(Into<Item>())
                        StrataContender.fill(item, from: row)
                        return item.objectID()
                    })
                }
                for (index, id) in ids.enumerated() {
                    try await stack.perform { transaction in transaction.edit(id)?.score = Double(index) }
                }
                timings[contender, default: []].append(milliseconds(ContinuousClock.now - start))
                counts[contender] = try await stack.perform { transaction in try transaction.fetchCount(From<Item>()) }
                await stack.close()
                await server.0.close()
            }
        }
        let failed = counts["cloud"] != counts["sqlite"]
        if failed { print("MISMATCH workload=sync-commit contender=cloud got \(counts["cloud"] ?? -1) expected \(counts["sqlite"] ?? -1)") }
        for contender in ["sqlite", "cloud"] {
            let values = timings[contender] ?? []
            print("BENCH workload=sync-commit contender=strata-\(contender) median_ms=\(String(format: "%.2f", median(values))) "
                  + "per_commit_us=\(String(format: "%.1f", median(values) * 1000 / Double(2 * commits))) "
                  + "ratio_vs_sqlite=\(String(format: "%.3f", pairedRatio(values, timings["sqlite"] ?? []))) load=\(loadAverage())")
        }
        return failed
    }

    // MARK: A new device's first sync

    /// The rows the minimum sends a page at a time, as JSON.
    struct WireRow: Codable {
        let code: Int64
        let name: String
        let score: Double
        let category: Int64
        let createdAt: Double
    }

    @MainActor
    static func initialSyncWorkload() async throws -> Bool {
        let rows = (0..<initialSize).map(Row.make)
        let (serverStack, server, serverFile) = try await Self.server(rows)
        var timings: [String: [Double]] = [:]
        var peaks: [String: [Double]] = [:]
        var counts: [String: Int] = [:]
        for _ in 0..<rounds {
            for contender in ["strata", "minimum"] {
                StreamBench.resetPeak()
                let before = StreamBench.memory().resident
                let start = ContinuousClock.now
                if contender == "strata" {
                    let (stack, store) = try await device(server)
                    try await store?.sync()
                    timings[contender, default: []].append(milliseconds(ContinuousClock.now - start))
                    counts[contender] = try await stack.perform { transaction in try transaction.fetchCount(From<Item>()) }
                    await stack.close()
                } else {
                    counts[contender] = try minimum(from: serverFile)
                    timings[contender, default: []].append(milliseconds(ContinuousClock.now - start))
                }
                peaks[contender, default: []].append(Double(StreamBench.memory().peak - before) / 1024)
            }
        }
        await serverStack.close()
        let failed = counts["strata"] != rows.count || counts["minimum"] != rows.count
        if failed { print("MISMATCH workload=sync-initial-100k got \(counts) expected \(rows.count) rows each") }
        for contender in ["strata", "minimum"] {
            let values = timings[contender] ?? []
            let perSecond = Double(rows.count) / (median(values) / 1000)
            print("BENCH workload=sync-initial-100k contender=\(contender) median_ms=\(String(format: "%.2f", median(values))) "
                  + "rows_per_s=\(String(format: "%.0f", perSecond)) ratio_vs_minimum=\(String(format: "%.2f", pairedRatio(values, timings["minimum"] ?? []))) "
                  + "peak_rss_rise_mib=\(String(format: "%.1f", median(peaks[contender] ?? []))) load=\(loadAverage())")
        }
        return failed
    }

    /// The hand-written minimum: pages of 1,000 rows selected from the server's file, sent as
    /// JSON, and inserted with one prepared statement in a transaction per page into a table
    /// indexed as the model's; returns the rows.
    static func minimum(from file: String) throws -> Int {
        let server = RawDatabase(path: file)
        let device = RawDatabase(path: Scratch.path("sync-minimum"))
        // The model's table: its two indexes are kept up by every contender (a device's queries need them).
        device.exec("CREATE TABLE Item (id INTEGER PRIMARY KEY, code INTEGER, name TEXT, score REAL, category INTEGER, createdAt REAL)")
        device.exec("CREATE INDEX item_code ON Item (code)")
        device.exec("CREATE INDEX item_category ON Item (category)")
        let select = server.prepare("SELECT strata_id, code, name, score, category, createdAt FROM Item WHERE strata_id > ? ORDER BY strata_id LIMIT 1000")
        let insert = device.prepare("INSERT INTO Item (code, name, score, category, createdAt) VALUES (?, ?, ?, ?, ?)")
        defer {
            sqlite3_finalize(select)
            sqlite3_finalize(insert)
        }
        var after: Int64 = 0
        var total = 0
        while true {
            // The server's side: a page of rows, as JSON.
            sqlite3_bind_int64(select, 1, after)
            var page: [WireRow] = []
            while sqlite3_step(select) == SQLITE_ROW {
                after = sqlite3_column_int64(select, 0)
                page.append(WireRow(code: sqlite3_column_int64(select, 1), name: String(cString: sqlite3_column_text(select, 2)),
                                    score: sqlite3_column_double(select, 3), category: sqlite3_column_int64(select, 4),
                                    createdAt: sqlite3_column_double(select, 5)))
            }
            sqlite3_reset(select)
            guard !page.isEmpty else { return total }
            let body = try JSONEncoder().encode(page)
            // The device's side: the page decoded and inserted in one transaction.
            let received = try JSONDecoder().decode([WireRow].self, from: body)
            device.exec("BEGIN")
            for row in received {
                sqlite3_bind_int64(insert, 1, row.code)
                sqlite3_bind_text(insert, 2, row.name, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                sqlite3_bind_double(insert, 3, row.score)
                sqlite3_bind_int64(insert, 4, row.category)
                sqlite3_bind_double(insert, 5, row.createdAt)
                sqlite3_step(insert)
                sqlite3_reset(insert)
            }
            device.exec("COMMIT")
            total += received.count
        }
    }

    // MARK: Pushing

    @MainActor
    static func pushWorkload() async throws -> Bool {
        var timings: [Double] = []
        var failed = false
        for _ in 0..<rounds {
            let (serverStack, server, _) = try await Self.server([])
            let (stack, store) = try await device(server)
            try await stack.perform { transaction in
                for index in 0..<pushSize { StrataContender.fill(transaction.create(Into<Item>()), from: Row.make(index)) }
            }
            let start = ContinuousClock.now
            try await store?.push()
            timings.append(milliseconds(ContinuousClock.now - start))
            let received = try await serverStack.perform { transaction in try transaction.fetchCount(From<Item>()) }
            if received != pushSize {
                print("MISMATCH workload=sync-push-10k got \(received) expected \(pushSize)")
                failed = true
            }
            await stack.close()
            await serverStack.close()
        }
        print("BENCH workload=sync-push-10k contender=strata median_ms=\(String(format: "%.2f", median(timings))) "
              + "changes_per_s=\(String(format: "%.0f", Double(pushSize) / (median(timings) / 1000))) load=\(loadAverage())")
        return failed
    }

    // MARK: Latency

    @MainActor
    static func latencyWorkload() async throws -> Bool {
        let (serverStack, server, _) = try await Self.server([])
        let (stack, store) = try await device(server, live: true)
        try await store?.sync()
        let monitor = try stack.monitorList(From<Item>().orderBy(.ascending(\.code)))
        var updates = monitor.updates.makeAsyncIterator()
        var times: [Double] = []
        for index in 0..<latencyCommits {
            let start = ContinuousClock.now
            try await serverStack.perform { transaction in StrataContender.fill(transaction.create(Into<Item>()), from: Row.make(index)) }
            while monitor.numberOfObjects <= index {
                guard try await updates.next() != nil else { break }
            }
            times.append(milliseconds(ContinuousClock.now - start))
        }
        let failed = monitor.numberOfObjects != latencyCommits
        if failed { print("MISMATCH workload=sync-latency got \(monitor.numberOfObjects) expected \(latencyCommits)") }
        store?.account = nil
        await stack.close()
        await serverStack.close()
        let sorted = times.sorted()
        let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
        print("BENCH workload=sync-latency contender=strata median_ms=\(String(format: "%.2f", median(times))) p99_ms=\(String(format: "%.2f", p99)) "
              + "commits=\(times.count) load=\(loadAverage())")
        return failed
    }
}
