import CBenchSQLite
import Foundation

/// Hand-written SQLite: prepared statements, typed binds and reads, nothing else.
struct RawContender: Contender {
    let name = "raw"

    private static func text(_ statement: OpaquePointer, _ column: Int32) -> String {
        String(decoding: UnsafeBufferPointer(start: sqlite3_column_text(statement, column), count: Int(sqlite3_column_bytes(statement, column))),
               as: UTF8.self)
    }

    struct Record {
        var id: Int64
        var code: Int64
        var name: String
        var score: Double
        var category: Int64
        var createdAt: Date

        /// The current row of a `SELECT "strata_id", "code", "name", "score", "category", "createdAt"`.
        init(_ statement: OpaquePointer) {
            id = sqlite3_column_int64(statement, 0)
            code = sqlite3_column_int64(statement, 1)
            name = RawContender.text(statement, 2)
            score = sqlite3_column_double(statement, 3)
            category = sqlite3_column_int64(statement, 4)
            createdAt = Date(timeIntervalSince1970: sqlite3_column_double(statement, 5))
        }
    }

    func insert(_ rows: [Row], path: String) async throws -> Checksum {
        let database = RawDatabase(path: path)
        database.exec("""
            CREATE TABLE "Item" ("strata_id" INTEGER PRIMARY KEY NOT NULL, "code" INTEGER NOT NULL, "name" TEXT NOT NULL,
            "score" REAL NOT NULL, "category" INTEGER NOT NULL, "createdAt" REAL NOT NULL)
            """)
        database.exec("CREATE INDEX item_code ON \"Item\" (\"code\")")
        database.exec("CREATE INDEX item_category ON \"Item\" (\"category\")")
        database.exec("BEGIN IMMEDIATE")
        let statement = database.prepare("INSERT INTO \"Item\" (\"strata_id\", \"code\", \"name\", \"score\", \"category\", \"createdAt\") VALUES (?, ?, ?, ?, ?, ?)")
        defer { sqlite3_finalize(statement) }
        var checksum = Checksum()
        for (index, row) in rows.enumerated() {
            sqlite3_reset(statement)
            sqlite3_bind_int64(statement, 1, Int64(index + 1))
            sqlite3_bind_int64(statement, 2, row.code)
            var name = row.name
            name.withUTF8 { buffer in
                _ = sqlite3_bind_text(statement, 3, UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self),
                                      Int32(buffer.count), bench_sqlite_transient())
            }
            sqlite3_bind_double(statement, 4, row.score)
            sqlite3_bind_int64(statement, 5, row.category)
            sqlite3_bind_double(statement, 6, row.createdAt.timeIntervalSince1970)
            guard sqlite3_step(statement) == SQLITE_DONE else { fatalError(String(cString: sqlite3_errmsg(database.handle))) }
            checksum.add(code: row.code, score: row.score)
        }
        database.exec("COMMIT")
        return checksum
    }

    /// Looks each source's code up, then updates the row it finds or inserts a new one.
    func importUnique(_ input: ImportInput, path: String) throws -> Checksum {
        let sources = ImportSources.Values.decode(input)
        let database = RawDatabase(path: path)
        database.exec("BEGIN IMMEDIATE")
        let lookup = database.prepare("SELECT \"strata_id\" FROM \"Item\" WHERE \"code\" = ?")
        let update = database.prepare("UPDATE \"Item\" SET \"name\" = ?, \"score\" = ?, \"category\" = ?, \"createdAt\" = ? WHERE \"strata_id\" = ?")
        let insert = database.prepare("INSERT INTO \"Item\" (\"name\", \"score\", \"category\", \"createdAt\", \"strata_id\", \"code\") VALUES (?, ?, ?, ?, ?, ?)")
        let count = database.prepare("SELECT count(*) FROM \"Item\"")
        defer { [lookup, update, insert, count].forEach { sqlite3_finalize($0) } }
        var nextID: Int64 = {
            let maximum = database.prepare("SELECT coalesce(max(\"strata_id\"), 0) FROM \"Item\"")
            defer { sqlite3_finalize(maximum) }
            sqlite3_step(maximum)
            return sqlite3_column_int64(maximum, 0) + 1
        }()
        var checksum = Checksum()
        for values in sources {
            sqlite3_reset(lookup)
            sqlite3_bind_int64(lookup, 1, values.code)
            let found = sqlite3_step(lookup) == SQLITE_ROW ? sqlite3_column_int64(lookup, 0) : nil
            let statement = found == nil ? insert : update
            sqlite3_reset(statement)
            var name = values.name
            name.withUTF8 { buffer in
                _ = sqlite3_bind_text(statement, 1, UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self),
                                      Int32(buffer.count), bench_sqlite_transient())
            }
            sqlite3_bind_double(statement, 2, values.score)
            sqlite3_bind_int64(statement, 3, values.category)
            sqlite3_bind_double(statement, 4, values.createdAt.timeIntervalSince1970)
            if let found {
                sqlite3_bind_int64(statement, 5, found)
            } else {
                sqlite3_bind_int64(statement, 5, nextID)
                sqlite3_bind_int64(statement, 6, values.code)
                nextID += 1
            }
            guard sqlite3_step(statement) == SQLITE_DONE else { fatalError(String(cString: sqlite3_errmsg(database.handle))) }
            checksum.add(code: values.code, score: values.score)
        }
        sqlite3_step(count)
        checksum.rows = Int(sqlite3_column_int64(count, 0))
        sqlite3_reset(count)
        database.exec("COMMIT")
        return checksum
    }

    func fetchAll(path: String) async throws -> Checksum {
        let database = RawDatabase(path: path)
        let statement = database.prepare("SELECT \"strata_id\", \"code\", \"name\", \"score\", \"category\", \"createdAt\" FROM \"Item\"")
        defer { sqlite3_finalize(statement) }
        var records: [Record] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            records.append(Record(statement))
        }
        var checksum = Checksum()
        for record in records { checksum.add(code: record.code, score: record.score) }
        return checksum
    }

    func smallQueries(path: String) async throws -> Checksum {
        let database = RawDatabase(path: path)
        let statement = database.prepare("""
            SELECT "strata_id", "code", "name", "score", "category", "createdAt" FROM "Item" WHERE "category" = ? ORDER BY "score" DESC LIMIT ?
            """)
        defer { sqlite3_finalize(statement) }
        var checksum = Checksum()
        for query in 0..<Row.smallQueries {
            sqlite3_reset(statement)
            sqlite3_bind_int64(statement, 1, Int64(query) % Row.categories)
            sqlite3_bind_int64(statement, 2, 10)
            var records: [Record] = []
            while sqlite3_step(statement) == SQLITE_ROW {
                records.append(Record(statement))
            }
            for record in records { checksum.add(code: record.code, score: record.score) }
        }
        return checksum
    }

    func aggregate(path: String) async throws -> Checksum {
        let database = RawDatabase(path: path)
        let statement = database.prepare("SELECT \"category\", count(*), avg(\"score\") FROM \"Item\" GROUP BY \"category\" ORDER BY \"category\"")
        defer { sqlite3_finalize(statement) }
        var checksum = Checksum()
        while sqlite3_step(statement) == SQLITE_ROW {
            checksum.add(code: sqlite3_column_int64(statement, 0) * sqlite3_column_int64(statement, 1), score: sqlite3_column_double(statement, 2))
        }
        return checksum
    }
}
