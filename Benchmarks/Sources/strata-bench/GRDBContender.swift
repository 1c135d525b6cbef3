import Foundation
import GRDB

/// GRDB records over a `DatabasePool` (WAL), the way GRDB's documentation writes them.
struct GRDBContender: Contender {
    let name = "grdb"

    struct ItemRecord: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "Item"
        static let databaseDateEncodingStrategy = DatabaseDateEncodingStrategy.timeIntervalSince1970
        static let databaseDateDecodingStrategy = DatabaseDateDecodingStrategy.timeIntervalSince1970

        var strata_id: Int64?
        var code: Int64
        var name: String
        var score: Double
        var category: Int64
        var createdAt: Date

        enum Columns {
            static let code = Column("code")
            static let category = Column("category")
            static let score = Column("score")
        }
    }

    private func pool(_ path: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        return try DatabasePool(path: path, configuration: configuration)
    }

    /// The items table, as Strata lays it out.
    static func createTable(_ db: Database) throws {
        try db.create(table: "Item") { table in
            table.column("strata_id", .integer).primaryKey()
            table.column("code", .integer).notNull().indexed()
            table.column("name", .text).notNull()
            table.column("score", .double).notNull()
            table.column("category", .integer).notNull().indexed()
            table.column("createdAt", .double).notNull()
        }
    }

    func insert(_ rows: [Row], path: String) async throws -> Checksum {
        let pool = try pool(path)
        try await pool.write { db in try Self.createTable(db) }
        return try await pool.write { db in
            var checksum = Checksum()
            for (index, row) in rows.enumerated() {
                try ItemRecord(strata_id: Int64(index + 1), code: row.code, name: row.name, score: row.score, category: row.category,
                               createdAt: row.createdAt).insert(db)
                checksum.add(code: row.code, score: row.score)
            }
            return checksum
        }
    }

    /// Fetches each source's record by code, then updates it or inserts a new one.
    func importUnique(_ input: ImportInput, path: String) throws -> Checksum {
        let sources = ImportSources.Values.decode(input)
        return try pool(path).write { db in
            var checksum = Checksum()
            for values in sources {
                if var record = try ItemRecord.filter(ItemRecord.Columns.code == values.code).fetchOne(db) {
                    record.name = values.name
                    record.score = values.score
                    record.category = values.category
                    record.createdAt = values.createdAt
                    try record.update(db)
                } else {
                    try ItemRecord(strata_id: nil, code: values.code, name: values.name, score: values.score, category: values.category,
                                   createdAt: values.createdAt).insert(db)
                }
                checksum.add(code: values.code, score: values.score)
            }
            checksum.rows = try ItemRecord.fetchCount(db)
            return checksum
        }
    }

    func fetchAll(path: String) async throws -> Checksum {
        let records = try await pool(path).read { db in try ItemRecord.fetchAll(db) }
        var checksum = Checksum()
        for record in records { checksum.add(code: record.code, score: record.score) }
        return checksum
    }

    func smallQueries(path: String) async throws -> Checksum {
        try await pool(path).read { db in
            var checksum = Checksum()
            for query in 0..<Row.smallQueries {
                let records = try ItemRecord
                    .filter(ItemRecord.Columns.category == Int64(query) % Row.categories)
                    .order(ItemRecord.Columns.score.desc)
                    .limit(10)
                    .fetchAll(db)
                for record in records { checksum.add(code: record.code, score: record.score) }
            }
            return checksum
        }
    }

    func aggregate(path: String) async throws -> Checksum {
        try await pool(path).read { db in
            let rows = try ItemRecord
                .select(ItemRecord.Columns.category, count(SQL("*")), average(ItemRecord.Columns.score))
                .group(ItemRecord.Columns.category)
                .order(ItemRecord.Columns.category)
                .asRequest(of: GRDB.Row.self)
                .fetchAll(db)
            var checksum = Checksum()
            for row in rows {
                let category: Int64 = row[0]
                let count: Int64 = row[1]
                checksum.add(code: category * count, score: row[2])
            }
            return checksum
        }
    }
}
