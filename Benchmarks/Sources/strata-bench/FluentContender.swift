import FluentKit
import FluentPostgresDriver
import Foundation
import NIOPosix
import PostgresNIO
import StrataPostgres

/// The item as a Fluent model, written as Fluent's documentation writes models.
// `@unchecked Sendable` as Fluent's documentation prescribes for models: Fluent's property
// wrappers keep their values in reference storage that the compiler cannot check. It is sound
// here because each model is made, saved and read by one task and never shared.
final class FluentItem: Model, @unchecked Sendable {
    static let schema = "item"

    @ID(custom: "id", generatedBy: .database) var id: Int64?
    @Field(key: "code") var code: Int64
    @Field(key: "name") var name: String
    @Field(key: "score") var score: Double
    @Field(key: "category") var category: Int64
    @Field(key: "created_at") var createdAt: Double

    init() {}

    init(_ row: Row) {
        code = row.code
        name = row.name
        score = row.score
        category = row.category
        createdAt = row.createdAt.timeIntervalSinceReferenceDate
    }
}

/// Fluent 4 on PostgreSQL (fluent-postgres-driver), the PostgreSQL peer as GRDB is SQLite's: the
/// same table (its ids a `bigserial`, as a Fluent migration makes them), written and read the way
/// Fluent's documentation shows. It takes no part in the unique import (Fluent has no upsert of
/// many rows) nor in the grouped aggregate (its query builder has no `GROUP BY`).
struct FluentContender: Contender {
    let name = "fluent-pg"
    let url: String

    func takesPart(in workload: String) -> Bool {
        !["pg-import-150k", "pg-aggregate"].contains(workload)
    }

    /// Fluent's databases for the workload's schema, with `connections` pooled connections (one
    /// event loop's pool holding them all, so that every concurrent task can have one).
    static func databases(url: String, path: String, connections: Int = 1) throws -> (Databases, any Database) {
        let address = try PostgreSQLAddress(url: url)
        guard case .socket(let folder, let port) = address.endpoint else { throw BenchError.notMeasured }
        var configuration = SQLPostgresConfiguration(unixDomainSocketPath: folder + "/.s.PGSQL.\(port)", username: address.user,
                                                     password: address.password, database: address.database)
        configuration.searchPath = [PostgresBench.schema(path)]
        let group = MultiThreadedEventLoopGroup.singleton
        let databases = Databases(threadPool: NIOThreadPool.singleton, on: group)
        databases.use(.postgres(configuration: configuration, maxConnectionsPerEventLoop: connections, sqlLogLevel: .trace), as: .psql)
        guard let database = databases.database(.psql, logger: PostgresBench.logger, on: group.any()) else { throw BenchError.notMeasured }
        return (databases, database)
    }

    /// The table, empty, in the workload's schema.
    static func createTable(url: String, path: String) async throws {
        let raw = RawPostgresContender(url: url)
        try await raw.execute("""
            CREATE TABLE item (id bigserial PRIMARY KEY, code bigint NOT NULL, name text COLLATE "C" NOT NULL,
            score double precision NOT NULL, category bigint NOT NULL, created_at double precision NOT NULL)
            """, path: path)
        try await raw.execute("CREATE INDEX item_code ON item (code)", path: path)
        try await raw.execute("CREATE INDEX item_category ON item (category)", path: path)
    }

    /// The rows in one transaction, created 10,000 models a statement (`[Model].create(on:)`).
    func insert(_ rows: [Row], path: String) async throws -> Checksum {
        try await Self.createTable(url: url, path: path)
        let (databases, database) = try Self.databases(url: url, path: path)
        defer { Task { await databases.shutdownAsync() } }
        var checksum = Checksum()
        try await database.transaction { transaction in
            var start = 0
            while start < rows.count {
                let chunk = rows[start..<min(start + 10_000, rows.count)]
                try await chunk.map(FluentItem.init).create(on: transaction)
                start += chunk.count
            }
        }
        for row in rows { checksum.add(code: row.code, score: row.score) }
        return checksum
    }

    func importUnique(_ input: ImportInput, path: String) throws -> Checksum {
        throw BenchError.notMeasured
    }

    func fetchAll(path: String) async throws -> Checksum {
        let (databases, database) = try Self.databases(url: url, path: path)
        defer { Task { await databases.shutdownAsync() } }
        var checksum = Checksum()
        for item in try await FluentItem.query(on: database).all() { checksum.add(code: item.code, score: item.score) }
        return checksum
    }

    func smallQueries(path: String) async throws -> Checksum {
        let (databases, database) = try Self.databases(url: url, path: path)
        defer { Task { await databases.shutdownAsync() } }
        var checksum = Checksum()
        for query in 0..<Row.smallQueries {
            let category = Int64(query) % Row.categories
            let items = try await FluentItem.query(on: database).filter(\.$category == category).sort(\.$score, .descending).limit(10).all()
            for item in items { checksum.add(code: item.code, score: item.score) }
        }
        return checksum
    }

    func aggregate(path: String) async throws -> Checksum {
        throw BenchError.notMeasured
    }
}
