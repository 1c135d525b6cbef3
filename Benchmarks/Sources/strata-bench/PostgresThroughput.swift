import Foundation
import PostgresNIO
import Strata
import StrataPostgres

/// `pg-throughput`: four processes writing small transactions at once (one new item each), as
/// four app servers sharing a database do; `STRATA_BENCH_PROCESSES` sets how many processes and
/// `STRATA_BENCH_TASKS` how many concurrent tasks each process writes from (1), as a server's
/// request handlers do (raw postgres-nio then opens a connection per task, Fluent pools as many);
/// `STRATA_BENCH_WRITERS` sets Strata's `maximumWriters` (8). Each contender's four children connect first (raw
/// postgres-nio a connection per task, Strata a writer lane per task up to `maximumWriters`), then
/// start together; the figure is the wall time from the start to the last child's end, and the
/// transactions per second that gives.
///
/// The children are this program again, `STRATA_BENCH_THROUGHPUT_CHILD=<contender>` in their
/// environment: they print `ready` once connected, wait for a line on standard input, write, and exit.
enum PostgresThroughput {
    /// Processes writing at once (`STRATA_BENCH_PROCESSES`, 4 by default).
    static let processes = Int(ProcessInfo.processInfo.environment["STRATA_BENCH_PROCESSES"] ?? "") ?? 4
    /// Concurrent tasks per process (`STRATA_BENCH_TASKS`, 1 by default).
    static let tasks = max(1, Int(ProcessInfo.processInfo.environment["STRATA_BENCH_TASKS"] ?? "") ?? 1)
    /// Transactions per process.
    static var transactions: Int { scaled(500) }

    /// Runs the workload for each contender; false when a contender's table holds the wrong count.
    @MainActor
    static func run(contenders: [String]) async throws -> Bool {
        guard let url = PostgresBench.url else { return true }
        var timings: [String: [Double]] = [:]
        var failed = false
        for _ in 0..<rounds {
            for contender in contenders {
                let path = Scratch.path("\(contender)-throughput")
                try await prepare(contender, url: url, path: path)
                if setupOnly { continue }
                timings[contender, default: []].append(try measure(contender, path: path))
                let count = try await rows(contender, url: url, path: path)
                if count != processes * transactions {
                    print("MISMATCH workload=pg-throughput contender=\(contender) got \(count) rows expected \(processes * transactions)")
                    failed = true
                }
            }
        }
        let rawMedian = timings["raw-pg"].map(median) ?? 0
        for contender in contenders {
            guard let values = timings[contender] else { continue }
            let value = median(values)
            let perSecond = Double(processes * transactions) / (value / 1000)
            print("BENCH workload=pg-throughput contender=\(contender) median_ms=\(String(format: "%.2f", value)) "
                  + "ratio_vs_raw=\(String(format: "%.2f", rawMedian > 0 ? value / rawMedian : 0)) "
                  + "transactions_per_s=\(String(format: "%.0f", perSecond)) processes=\(processes) tasks=\(tasks) load=\(loadAverage())")
        }
        return !failed
    }

    /// An empty table for the contender (and, for raw postgres-nio, the sequence its ids come from).
    private static func prepare(_ contender: String, url: String, path: String) async throws {
        if contender == "strata-pg" {
            _ = try await StrataPostgresContender(url: url).insert([], path: path)
        } else if contender == "fluent-pg" {
            try await FluentContender.createTable(url: url, path: path)
        } else {
            _ = try await RawPostgresContender(url: url).insert([], path: path)
            try await RawPostgresContender(url: url).execute("CREATE SEQUENCE item_ids", path: path)
        }
    }

    /// The rows the contender's table holds.
    private static func rows(_ contender: String, url: String, path: String) async throws -> Int {
        if contender == "strata-pg" {
            let stack = DataStack(Bench.schemaHistory)
            try await stack.addStorage(PostgreSQLStore(url: url, schema: PostgresBench.schema(path)))
            return try await stack.closing { try await $0.read { try $0.fetchCount(From<Item>()) } }
        }
        let connection = try await RawPostgresContender(url: url).connect(path)
        defer { Task { try? await connection.close() } }
        for try await count in try await connection.query("SELECT count(*) FROM item", logger: PostgresBench.logger).decode(Int.self) {
            return count
        }
        return 0
    }

    /// Starts the children, waits until each is connected, lets them go together; the
    /// milliseconds until the last one ended.
    private static func measure(_ contender: String, path: String) throws -> Double {
        var children: [(process: Process, input: Pipe, output: Pipe)] = []
        for index in 0..<processes {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            var environment = ProcessInfo.processInfo.environment
            environment["STRATA_BENCH_THROUGHPUT_CHILD"] = contender
            environment["STRATA_BENCH_THROUGHPUT_PATH"] = path
            environment["STRATA_BENCH_THROUGHPUT_INDEX"] = String(index)
            process.environment = environment
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            children.append((process, input, output))
        }
        for child in children {
            let line = String(decoding: child.output.fileHandleForReading.readData(ofLength: 6), as: UTF8.self)
            guard line == "ready\n" else { throw ChildFailed(contender: contender, said: line) }
        }
        let start = ContinuousClock.now
        for child in children { child.input.fileHandleForWriting.write(Data("go\n".utf8)) }
        for child in children {
            child.process.waitUntilExit()
            guard child.process.terminationStatus == 0 else { throw ChildFailed(contender: contender, said: "exit \(child.process.terminationStatus)") }
        }
        return milliseconds(ContinuousClock.now - start)
    }

    struct ChildFailed: Error {
        let contender: String
        let said: String
    }

    /// In a child: connects, says `ready`, waits for the go, and writes its transactions.
    static func child(_ contender: String) async throws {
        guard let url = PostgresBench.url, let path = ProcessInfo.processInfo.environment["STRATA_BENCH_THROUGHPUT_PATH"] else { return }
        let index = Int(ProcessInfo.processInfo.environment["STRATA_BENCH_THROUGHPUT_INDEX"] ?? "") ?? 0
        let rows = (0..<transactions).map { Row.make(index * transactions + $0) }
        // Each task writes every `tasks`-th row.
        let shares = (0..<tasks).map { task in stride(from: task, to: rows.count, by: tasks).map { rows[$0] } }
        if contender == "strata-pg" {
            let stack = DataStack(Bench.schemaHistory)
            let writers = Int(ProcessInfo.processInfo.environment["STRATA_BENCH_WRITERS"] ?? "") ?? 8
            try await stack.addStorage(PostgreSQLStore(url: url, schema: PostgresBench.schema(path), maximumWriters: writers))
            try await stack.closing { stack in
                try await connectLanes(min(tasks, writers), of: stack)
                waitForGo()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for share in shares {
                        group.addTask {
                            for row in share {
                                try await stack.perform { StrataContender.fill($0.create(Into<Item>()), from: row) }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
        } else if contender == "fluent-pg" {
            // As a Vapor app configures it: a pool with a connection for each concurrent task.
            let (databases, database) = try FluentContender.databases(url: url, path: path, connections: tasks)
            _ = try await FluentItem.query(on: database).count()
            waitForGo()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for share in shares {
                    group.addTask {
                        for row in share {
                            try await database.transaction { transaction in try await FluentItem(row).create(on: transaction) }
                        }
                    }
                }
                try await group.waitForAll()
            }
            await databases.shutdownAsync()
        } else {
            var connections: [PostgresConnection] = []
            for _ in shares { connections.append(try await RawPostgresContender(url: url).connect(path)) }
            waitForGo()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (connection, share) in zip(connections, shares) {
                    group.addTask {
                        for row in share {
                            try await connection.query("BEGIN", logger: PostgresBench.logger)
                            try await connection.query("""
                                INSERT INTO item (id, code, name, score, category, created_at)
                                VALUES (nextval('item_ids'), \(row.code), \(row.name), \(row.score), \(row.category), \(row.createdAt.timeIntervalSinceReferenceDate))
                                """, logger: PostgresBench.logger)
                            try await connection.query("COMMIT", logger: PostgresBench.logger)
                        }
                        try await connection.close()
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    /// Opens `count` of the stack's writer lanes, each with its connection, as raw postgres-nio
    /// opens a connection per task before the go: `count` transactions that each hold their lane
    /// until all of them have one.
    private static func connectLanes(_ count: Int, of stack: DataStack) async throws {
        guard count > 1 else { return }
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<count {
                group.addTask {
                    try await stack.perform { transaction in
                        _ = try transaction.fetchCount(From<Item>())
                        started.signal()
                        release.wait()
                    }
                }
            }
            // Waits on a thread of its own, not one of the cooperative pool's.
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread {
                    for _ in 0..<count { started.wait() }
                    for _ in 0..<count { release.signal() }
                    done.resume()
                }
            }
            try await group.waitForAll()
        }
    }

    private static func waitForGo() {
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        _ = readLine()
    }
}
