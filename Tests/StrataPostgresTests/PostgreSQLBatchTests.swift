// Compiled with the PostgreSQL trait only (see Package.swift).
#if PostgreSQL
import Foundation
import Strata
@testable import StrataPostgres
import StrataTestSupport
import Testing

@Suite("PostgreSQL batched writes", Postgres.available)
struct PostgreSQLBatchTests {
    /// A column of each type a batch writes (the key first).
    static let columns: [BatchedWrite.Column] = [
        .init(name: "id", type: nil), .init(name: "flag", type: .bool), .init(name: "small", type: .int16),
        .init(name: "whole", type: .int32), .init(name: "big", type: .int64), .init(name: "ratio", type: .float),
        .init(name: "amount", type: .double), .init(name: "price", type: .decimal), .init(name: "name", type: .string),
        .init(name: "bytes", type: .data), .init(name: "token", type: .uuid),
    ]

    /// A connection to a new database holding the table of ``columns``.
    static func connect() throws -> PostgreSQLConnection {
        let connection = try PostgreSQLConnection.connect(PostgreSQLAddress(url: Postgres.newDatabaseURL()))
        try connection.execute("""
            CREATE TABLE "it""em" (id bigint PRIMARY KEY, flag boolean, small smallint, whole integer, big bigint, ratio real, \
            amount double precision, price numeric, name text COLLATE "C" UNIQUE, bytes bytea, token uuid)
            """)
        return connection
    }

    static let insert = BatchedWrite.insert(into: "it\"em", columns: columns)

    /// Row `id`, a value in every column.
    static func row(_ id: Int64) -> [SQLValue] {
        [.integer(id), .integer(id % 2), .integer(-id % 30_000), .integer(id * 3), .integer(Int64.max - id),
         .real(Double(Float(id) / 7)), .real(Double(id) / 3), .text("\(id).25"), .text("name \(id) ü"),
         .blob([UInt8(id % 256), 0, 255]), .blob(Array(repeating: UInt8(id % 256), count: 16))]
    }

    private func add(_ values: [SQLValue], to statement: any DatabaseStatement) throws {
        statement.reset()
        statement.bind(values)
        try statement.step()
    }

    private func stored(_ connection: PostgreSQLConnection) throws -> [[SQLValue]] {
        try connection.query(#"SELECT * FROM "it""em" ORDER BY id"#).rows
    }

    @Test func rowsBeyondOneBatchArriveExactlyAndInOrder() throws {
        let connection = try Self.connect()
        try connection.beginWriteTransaction()
        let statement = try connection.batchedStatement(Self.insert)
        let count = Int64(PostgreSQLBatch.limit * 2 + 7)
        for id in 1...count { try add(Self.row(id), to: statement) }
        // Nulls travel in every column but the key.
        try add([.integer(count + 1)] + Array(repeating: .null, count: Self.columns.count - 1), to: statement)
        try connection.commit()
        let rows = try stored(connection)
        #expect(rows.count == Int(count) + 1)
        #expect(rows.first == Self.row(1))
        #expect(rows[Int(count) - 1] == Self.row(count))
        #expect(rows.last == [.integer(count + 1)] + Array(repeating: .null, count: Self.columns.count - 1))
    }

    @Test func aReadSeesTheRowsWrittenBeforeIt() throws {
        let connection = try Self.connect()
        try connection.beginWriteTransaction()
        let statement = try connection.batchedStatement(Self.insert)
        for id in 1...3 { try add(Self.row(Int64(id)), to: statement) }
        #expect(try connection.query(#"SELECT count(*) FROM "it""em""#).rows == [[.integer(3)]])
        try connection.rollback()
    }

    @Test func updatesAndDeletesRunInTheOrderWritten() throws {
        let connection = try Self.connect()
        try connection.beginWriteTransaction()
        let insert = try connection.batchedStatement(Self.insert)
        for id in 1...4 { try add(Self.row(Int64(id)), to: insert) }
        let update = BatchedWrite.update("it\"em", columns: [.init(name: "name", type: .string)], key: "id")
        let updates = try connection.batchedStatement(update)
        try add([.text("first"), .integer(2)], to: updates)
        // The same row twice in one batch: the later value wins.
        try add([.text("second"), .integer(2)], to: updates)
        try add([.text("three"), .integer(3)], to: updates)
        // A row inserted after the updates began, then updated: the insert goes first.
        try add(Self.row(5), to: try connection.batchedStatement(Self.insert))
        try add([.text("five"), .integer(5)], to: try connection.batchedStatement(update))
        let deletes = try connection.batchedStatement(.delete(from: "it\"em", key: "id"))
        try add([.integer(1)], to: deletes)
        try add([.integer(4)], to: deletes)
        try connection.commit()
        let names = try connection.query(#"SELECT id, name FROM "it""em" ORDER BY id"#).rows
        #expect(names == [[.integer(2), .text("second")], [.integer(3), .text("three")], [.integer(5), .text("five")]])
    }

    @Test func aRollbackDropsTheRowsNotSent() throws {
        let connection = try Self.connect()
        try connection.beginWriteTransaction()
        let statement = try connection.batchedStatement(Self.insert)
        for id in 1...3 { try add(Self.row(Int64(id)), to: statement) }
        try connection.rollback()
        #expect(try stored(connection).isEmpty)
        try connection.beginWriteTransaction()
        try add(Self.row(9), to: try connection.batchedStatement(Self.insert))
        try connection.commit()
        #expect(try stored(connection) == [Self.row(9)])
    }

    @Test func aDuplicateUniqueValueFailsTheCommitNamingTheColumn() throws {
        let connection = try Self.connect()
        try connection.beginWriteTransaction()
        let statement = try connection.batchedStatement(Self.insert)
        var duplicate = Self.row(2)
        duplicate[8] = Self.row(1)[8]
        try add(Self.row(1), to: statement)
        try add(duplicate, to: statement)
        #expect(throws: StrataError.uniquenessViolation(entity: "it\"em", attributes: ["name"])) { try connection.commit() }
        try connection.rollback()
        #expect(try stored(connection).isEmpty)
    }

    /// A value not in its column's form (text for an integer, 2 for a Boolean, an integer beyond
    /// `smallint`) sends the rows one by one, and the server refuses it as it refuses one row.
    @Test(arguments: [
        (3, SQLValue.text("many"), #"22P02: invalid input syntax for type integer: "many""#),
        (1, SQLValue.integer(2), #"22P02: invalid input syntax for type boolean: "2""#),
        (2, SQLValue.integer(40_000), #"22003: value "40000" is out of range for type smallint"#),
    ])
    func aValueOutOfFormIsReadByTheServer(column: Int, value: SQLValue, expected: String) throws {
        let connection = try Self.connect()
        try connection.beginWriteTransaction()
        let statement = try connection.batchedStatement(Self.insert)
        var bad = Self.row(2)
        bad[column] = value
        try add(Self.row(1), to: statement)
        try add(bad, to: statement)
        let error = #expect(throws: StrataError.self) { try connection.commit() }
        guard case .server(let code, let message, let sql)? = error else { Issue.record("not a server error: \(String(describing: error))"); return }
        #expect("\(code): \(message)" == expected)
        #expect(sql == Self.insert.sql)
        try connection.rollback()
    }

    @Test func textThatFitsTheColumnsIsSentInOneStatement() throws {
        // Values Strata binds for numeric columns arrive as text; integers in range as integers.
        #expect(PostgreSQLArray(.decimal, values: [.text("1.5"), .null]) != nil)
        #expect(PostgreSQLArray(.int16, values: [.integer(-32_768), .integer(32_767)]) != nil)
        #expect(PostgreSQLArray(.int16, values: [.integer(32_768)]) == nil)
        #expect(PostgreSQLArray(.float, values: [.real(0.1)]) == nil)
        #expect(PostgreSQLArray(.float, values: [.real(Double(Float(0.1))), .real(.nan), .real(-.infinity)]) != nil)
        #expect(PostgreSQLArray(.uuid, values: [.blob([1, 2])]) == nil)
    }
}
#endif
