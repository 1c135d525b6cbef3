import Foundation
import Logging
import NIOPosix
import PostgresNIO
import Strata
import StrataPostgres

/// The PostgreSQL side: Strata on a `PostgreSQLStore` against postgres-nio used the fastest way a
/// careful user would (one multi-row `INSERT ... SELECT FROM unnest(...)` per 10,000 rows, the same
/// statement text for every small query, so the server plans it once), on the server
/// `STRATA_BENCH_POSTGRES_URL` names (`Scripts/bench-postgres.sh` starts a throwaway one). Each
/// database a workload makes is a schema of its own.
enum PostgresBench {
    static let workloads = ["pg-insert", "pg-import-150k", "pg-fetch", "pg-small-queries", "pg-aggregate", "pg-throughput"]
    static let url = ProcessInfo.processInfo.environment["STRATA_BENCH_POSTGRES_URL"]

    /// A schema name for a scratch "path": its last component, letters and digits only.
    static func schema(_ path: String) -> String {
        "bench_" + String(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent.unicodeScalars
            .filter { CharacterSet.alphanumerics.contains($0) }.prefix(40)).lowercased()
    }

    static let logger = Logger(label: "strata-bench.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
}

/// Strata on PostgreSQL: the same code as `StrataContender`, another storage.
struct StrataPostgresContender: Contender {
    let name = "strata-pg"
    let url: String

    private func stack(_ path: String) async throws -> DataStack {
        let stack = DataStack(Bench.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: url, schema: PostgresBench.schema(path)))
        return stack
    }

    func insert(_ rows: [Row], path: String) async throws -> Checksum {
        try await stack(path).closing { try await StrataContender.insert(rows, into: $0) }
    }

    func importUnique(_ input: ImportInput, path: String) async throws -> Checksum {
        try await stack(path).closing { try StrataContender.importUnique(input, into: $0) }
    }

    func fetchAll(path: String) async throws -> Checksum {
        try await stack(path).closing { try await StrataContender.fetchAll(in: $0) }
    }

    func smallQueries(path: String) async throws -> Checksum {
        try await stack(path).closing { try await StrataContender.smallQueries(in: $0) }
    }

    func aggregate(path: String) async throws -> Checksum {
        try await stack(path).closing { try await StrataContender.aggregate(in: $0) }
    }
}

/// postgres-nio by hand.
struct RawPostgresContender: Contender {
    let name = "raw-pg"
    let url: String
    /// Whether the code index is unique, as an upsert by code needs (the import's table).
    var uniqueCodes = false

    /// Runs `sql` in the workload's schema.
    func execute(_ sql: String, path: String) async throws {
        let connection = try await connect(path)
        try await run(connection, sql)
        try await connection.close()
    }

    /// A connection whose search path is the workload's schema.
    func connect(_ path: String) async throws -> PostgresConnection {
        let address = try PostgreSQLAddress(url: url)
        guard case .socket(let folder, let port) = address.endpoint else { throw BenchError.notMeasured }
        let configuration = PostgresConnection.Configuration(unixSocketPath: folder + "/.s.PGSQL.\(port)", username: address.user,
                                                             password: address.password, database: address.database)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: PostgresBench.logger)
        let schema = PostgresBench.schema(path)
        try await connection.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(schema)"), logger: PostgresBench.logger)
        try await connection.query(PostgresQuery(unsafeSQL: "SET search_path TO \(schema)"), logger: PostgresBench.logger)
        return connection
    }

    private func run(_ connection: PostgresConnection, _ sql: String) async throws {
        try await connection.query(PostgresQuery(unsafeSQL: sql), logger: PostgresBench.logger)
    }

    func insert(_ rows: [Row], path: String) async throws -> Checksum {
        let connection = try await connect(path)
        defer { Task { try? await connection.close() } }
        try await run(connection, """
            CREATE TABLE item (id bigint PRIMARY KEY, code bigint NOT NULL, name text COLLATE "C" NOT NULL,
            score double precision NOT NULL, category bigint NOT NULL, created_at double precision NOT NULL)
            """)
        try await run(connection, "CREATE \(uniqueCodes ? "UNIQUE " : "")INDEX item_code ON item (code)")
        try await run(connection, "CREATE INDEX item_category ON item (category)")
        try await run(connection, "BEGIN")
        var checksum = Checksum()
        var start = 0
        while start < rows.count {
            let chunk = rows[start..<min(start + 10_000, rows.count)]
            let ids = chunk.indices.map { Int64($0 + 1) }
            var query = PostgresQuery(unsafeSQL: """
                INSERT INTO item (id, code, name, score, category, created_at)
                SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::float8[], $5::bigint[], $6::float8[])
                """)
            query.binds.append(ids, context: .default)
            query.binds.append(chunk.map(\.code), context: .default)
            query.binds.append(chunk.map(\.name), context: .default)
            query.binds.append(chunk.map(\.score), context: .default)
            query.binds.append(chunk.map(\.category), context: .default)
            query.binds.append(chunk.map { $0.createdAt.timeIntervalSinceReferenceDate }, context: .default)
            try await connection.query(query, logger: PostgresBench.logger)
            for row in chunk { checksum.add(code: row.code, score: row.score) }
            start += chunk.count
        }
        try await run(connection, "COMMIT")
        return checksum
    }

    /// One upsert per 10,000 sources (`INSERT ... SELECT FROM unnest(...) ON CONFLICT (code) DO
    /// UPDATE`), new rows numbered after the highest id, in one transaction.
    func importUnique(_ input: ImportInput, path: String) throws -> Checksum {
        let sources = ImportSources.Values.decode(input)
        let connection = try connectWaiting(path)
        defer { _ = try? connection.close().wait() }
        func run(_ query: PostgresQuery) throws -> PostgresQueryResult {
            try connection.query(query, logger: PostgresBench.logger).wait()
        }
        _ = try run("BEGIN")
        let highest = try run("SELECT coalesce(max(id), 0) FROM item").rows.first?.decode(Int64.self) ?? 0
        var checksum = Checksum()
        var start = 0
        while start < sources.count {
            let chunk = sources[start..<min(start + 10_000, sources.count)]
            var query = PostgresQuery(unsafeSQL: """
                INSERT INTO item (id, code, name, score, category, created_at)
                SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::float8[], $5::bigint[], $6::float8[])
                ON CONFLICT (code) DO UPDATE SET name = excluded.name, score = excluded.score, category = excluded.category,
                created_at = excluded.created_at
                """)
            query.binds.append(chunk.indices.map { highest + Int64($0) + 1 }, context: .default)
            query.binds.append(chunk.map(\.code), context: .default)
            query.binds.append(chunk.map(\.name), context: .default)
            query.binds.append(chunk.map(\.score), context: .default)
            query.binds.append(chunk.map(\.category), context: .default)
            query.binds.append(chunk.map { $0.createdAt.timeIntervalSinceReferenceDate }, context: .default)
            _ = try run(query)
            for values in chunk { checksum.add(code: values.code, score: values.score) }
            start += chunk.count
        }
        checksum.rows = try run("SELECT count(*) FROM item").rows.first?.decode(Int.self) ?? 0
        _ = try run("COMMIT")
        return checksum
    }

    /// A connection for synchronous code, its search path the workload's schema.
    private func connectWaiting(_ path: String) throws -> PostgresConnection {
        let address = try PostgreSQLAddress(url: url)
        guard case .socket(let folder, let port) = address.endpoint else { throw BenchError.notMeasured }
        let configuration = PostgresConnection.Configuration(unixSocketPath: folder + "/.s.PGSQL.\(port)", username: address.user,
                                                             password: address.password, database: address.database)
        let connection = try PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration,
                                                        id: 1, logger: PostgresBench.logger).wait()
        _ = try connection.query(PostgresQuery(unsafeSQL: "SET search_path TO \(PostgresBench.schema(path))"), logger: PostgresBench.logger).wait()
        return connection
    }

    /// Every row, decoded as an app would.
    func fetchAll(path: String) async throws -> Checksum {
        let connection = try await connect(path)
        defer { Task { try? await connection.close() } }
        let rows = try await connection.query("SELECT id, code, name, score, category, created_at FROM item", logger: PostgresBench.logger)
        var checksum = Checksum()
        for try await (_, code, name, score, category, createdAt) in rows.decode((Int64, Int64, String, Double, Int64, Double).self) {
            let item = RawItem(code: code, name: name, score: score, category: category, createdAt: Date(timeIntervalSinceReferenceDate: createdAt))
            checksum.add(code: item.code, score: item.score)
        }
        return checksum
    }

    func smallQueries(path: String) async throws -> Checksum {
        let connection = try await connect(path)
        defer { Task { try? await connection.close() } }
        var checksum = Checksum()
        for query in 0..<Row.smallQueries {
            let category = Int64(query) % Row.categories
            let rows = try await connection.query("""
                SELECT id, code, name, score, category, created_at FROM item WHERE category = \(category) ORDER BY score DESC LIMIT 10
                """, logger: PostgresBench.logger)
            for try await (_, code, _, score, _, _) in rows.decode((Int64, Int64, String, Double, Int64, Double).self) {
                checksum.add(code: code, score: score)
            }
        }
        return checksum
    }

    func aggregate(path: String) async throws -> Checksum {
        let connection = try await connect(path)
        defer { Task { try? await connection.close() } }
        let rows = try await connection.query("""
            SELECT category, count(category), avg(score) FROM item GROUP BY category ORDER BY category
            """, logger: PostgresBench.logger)
        var checksum = Checksum()
        for try await (category, count, mean) in rows.decode((Int64, Int64, Double).self) {
            checksum.add(code: category * count, score: mean)
        }
        return checksum
    }
}

/// A fetched row as an app holds it.
private struct RawItem {
    let code: Int64
    let name: String
    let score: Double
    let category: Int64
    let createdAt: Date
}

enum BenchError: Error {
    case notMeasured
}

extension PostgresBench {
    /// Runs the PostgreSQL workloads among `workloads` and prints their figures, ratios against
    /// raw postgres-nio; false when Strata's results differed from it.
    @MainActor
    static func run(_ workloads: [String]) async throws -> Bool {
        let chosen = workloads.filter(Self.workloads.contains)
        guard !chosen.isEmpty else { return true }
        guard let url else {
            print("SKIPPED workloads=\(chosen.joined(separator: ",")) reason=set STRATA_BENCH_POSTGRES_URL (Scripts/bench-postgres.sh does)")
            return true
        }
        let contenders: [any Contender] = [StrataPostgresContender(url: url), RawPostgresContender(url: url), FluentContender(url: url)]
            .filter { selected?.contains($0.name) ?? true }
        var prepared: [String: String] = [:]
        let reads = ["pg-fetch", "pg-small-queries", "pg-aggregate"].filter(chosen.contains)
        if !reads.isEmpty {
            for contender in contenders where reads.contains(where: contender.takesPart) {
                let path = Scratch.path("\(contender.name)-read")
                _ = try await contender.insert(Row.all, path: path)
                prepared[contender.name] = path
            }
        }
        var failed = false
        for workload in chosen {
            var timings: [String: [Double]] = [:]
            var checksums: [String: Checksum] = [:]
            var importJSON: Data?
            if workload == "pg-throughput" {
                if try await !PostgresThroughput.run(contenders: contenders.map(\.name)) { failed = true }
                continue
            }
            for _ in 0..<rounds {
                for contender in contenders where contender.takesPart(in: workload) {
                    if setupOnly { continue }
                    let start = ContinuousClock.now
                    let checksum: Checksum
                    switch workload {
                    case "pg-insert": checksum = try await contender.insert(Row.all, path: Scratch.path(contender.name))
                    case "pg-import-150k":
                        // The starting database and the JSON document are made before the clock starts.
                        let path = Scratch.path("\(contender.name)-import")
                        if var raw = contender as? RawPostgresContender {
                            raw.uniqueCodes = true
                            _ = try await raw.insert(ImportSources.large.prefill, path: path)
                        } else {
                            _ = try await contender.insert(ImportSources.large.prefill, path: path)
                        }
                        let json = importJSON ?? ImportSources.large.json()
                        importJSON = json
                        let start = ContinuousClock.now
                        checksum = try await contender.importUnique(.json(json), path: path)
                        timings[contender.name, default: []].append(milliseconds(ContinuousClock.now - start))
                        checksums[contender.name] = checksum
                        continue
                    case "pg-fetch": checksum = try await contender.fetchAll(path: prepared[contender.name]!)
                    case "pg-small-queries": checksum = try await contender.smallQueries(path: prepared[contender.name]!)
                    default: checksum = try await contender.aggregate(path: prepared[contender.name]!)
                    }
                    timings[contender.name, default: []].append(milliseconds(ContinuousClock.now - start))
                    checksums[contender.name] = checksum
                }
            }
            for (name, checksum) in checksums.sorted(by: { $0.key < $1.key }) where checksum != checksums["raw-pg"] {
                print("MISMATCH workload=\(workload) contender=\(name) got \(checksum) expected \(checksums["raw-pg"].map(String.init(describing:)) ?? "none")")
                failed = true
            }
            let rawMedian = timings["raw-pg"].map(median) ?? 0
            for contender in contenders {
                guard let values = timings[contender.name] else { continue }
                let value = median(values)
                print("BENCH workload=\(workload) contender=\(contender.name) median_ms=\(String(format: "%.2f", value)) "
                      + "ratio_vs_raw=\(String(format: "%.2f", rawMedian > 0 ? value / rawMedian : 0)) load=\(loadAverage())")
            }
        }
        return !failed
    }
}
