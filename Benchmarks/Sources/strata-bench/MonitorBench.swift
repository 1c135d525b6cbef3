import Foundation
import GRDB
import Strata

// `monitor-1k`, `monitor-10k`, `monitor-100k`: a list of the items with `category < 50` ordered
// by name, over N rows, kept up to date while 1,000 commits each rename one member (so it may
// move), then 1,000 commits each insert a member. The figure is the median time per change, from the
// start of the commit to the change arriving at the consumer: a Strata `ListMonitor`'s change
// set, or GRDB's `ValueObservation` of the same request (which fetches the list again).

enum MonitorBench {
    // At least 100 rows, so the list has members to rename at any scale.
    static let sizes = ["monitor-1k": max(100, scaled(1_000)), "monitor-10k": max(100, scaled(10_000)), "monitor-100k": max(100, scaled(100_000))]
    static let workloads = ["monitor-1k", "monitor-10k", "monitor-100k"]
    static let changes = scaled(1_000)

    /// The row the `index`th insertion adds: always a member of the list.
    static func inserted(_ index: Int) -> Row {
        let row = Row.make(index)
        return Row(code: row.code, name: row.name, score: row.score, category: row.category % 50, createdAt: row.createdAt)
    }

    /// The rows of a workload.
    static func rows(_ workload: String) -> [Row] { (0..<(sizes[workload] ?? 0)).map(Row.make) }

    /// Strata's per-change times (ms) and the final list's size.
    @MainActor
    static func strata(_ rows: [Row]) async throws -> (times: [Double], count: Int) {
        let stack = DataStack(Bench.schemaHistory, externalCommitCheckInterval: nil)
        try stack.addStorageAndWait(SQLiteStore(fileURL: URL(fileURLWithPath: Scratch.path("monitor-strata"))))
        return try await stack.closing { stack in try await strata(rows, on: stack) }
    }

    /// Strata's per-change times (ms) and the final list's size, on `stack`.
    @MainActor
    private static func strata(_ rows: [Row], on stack: DataStack) async throws -> (times: [Double], count: Int) {
        try await stack.perform { transaction in
            for row in rows { StrataContender.fill(transaction.create(Into<Item>()), from: row) }
        }
        let monitor = try stack.monitorList(From<Item>().where(\.category < 50).orderBy(.ascending(\.name)))
        var updates = monitor.updates.makeAsyncIterator()
        let members = monitor.snapshot.itemIDs
        var times: [Double] = []
        for change in 0..<(2 * changes) {
            let start = ContinuousClock.now
            if change < changes {
                let id = members[(change * 7_919) % members.count]
                try await stack.perform { transaction in transaction.edit(id)?.name = "renamed-\(change)" }
            } else {
                try await stack.perform { transaction in
                    StrataContender.fill(transaction.create(Into<Item>()), from: inserted(rows.count + change))
                }
            }
            guard try await updates.next() != nil else { break }
            times.append(milliseconds(ContinuousClock.now - start))
        }
        return (times, monitor.numberOfObjects)
    }

    /// GRDB's per-change times (ms) and the final list's size.
    static func grdb(_ rows: [Row]) async throws -> (times: [Double], count: Int) {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        let pool = try DatabasePool(path: Scratch.path("monitor-grdb"), configuration: configuration)
        defer { try? pool.close() }
        try await pool.write { db in
            try GRDBContender.createTable(db)
            for (index, row) in rows.enumerated() {
                try GRDBContender.ItemRecord(strata_id: Int64(index + 1), code: row.code, name: row.name, score: row.score,
                                             category: row.category, createdAt: row.createdAt).insert(db)
            }
        }
        let observation = ValueObservation.tracking { db in
            try GRDBContender.ItemRecord.filter(Column("category") < 50).order(Column("name")).fetchAll(db)
        }
        var values = observation.values(in: pool).makeAsyncIterator()
        guard var list = try await values.next() else { return ([], 0) }
        let members = list.compactMap(\.strata_id)
        var times: [Double] = []
        for change in 0..<(2 * changes) {
            let start = ContinuousClock.now
            if change < changes {
                let id = members[(change * 7_919) % members.count]
                try await pool.write { db in try db.execute(sql: "UPDATE Item SET name = ? WHERE strata_id = ?", arguments: ["renamed-\(change)", id]) }
            } else {
                let row = inserted(rows.count + change)
                try await pool.write { db in
                    try GRDBContender.ItemRecord(strata_id: nil, code: row.code, name: row.name, score: row.score, category: row.category,
                                                 createdAt: row.createdAt).insert(db)
                }
            }
            // GRDB may deliver a value fetched before the write (its first change can repeat the
            // initial value): the change has arrived when a value shows it.
            let expected = rows.count / 2 + max(0, change - changes + 1)
            repeat {
                guard let next = try await values.next() else { return (times, list.count) }
                list = next
            } while change < changes ? !list.contains { $0.name == "renamed-\(change)" } : list.count != expected
            times.append(milliseconds(ContinuousClock.now - start))
        }
        return (times, list.count)
    }
}
