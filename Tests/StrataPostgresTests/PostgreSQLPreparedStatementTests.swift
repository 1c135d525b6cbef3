// Compiled with the PostgreSQL trait only (see Package.swift).
#if PostgreSQL
import Foundation
import Strata
@testable import StrataPostgres
import StrataTestSupport
import Testing

/// A transaction's single-row writes go as statements the connection prepared once: values in
/// their columns' binary forms, rows and errors as unprepared statements give them.
@Suite("PostgreSQL prepared statements", Postgres.available)
struct PostgreSQLPreparedStatementTests {
    private static let columns = PostgreSQLBatchTests.columns
    private static let insert = PostgreSQLBatchTests.insert

    private func connect() throws -> PostgreSQLConnection { try PostgreSQLBatchTests.connect() }

    private static func row(_ id: Int64) -> [SQLValue] { PostgreSQLBatchTests.row(id) }

    /// One transaction writing `values` as the single row of `write`, committed with its mark.
    private func commitOne(_ values: [SQLValue], _ write: BatchedWrite = Self.insert, on connection: PostgreSQLConnection) throws {
        try connection.beginWriteTransaction()
        do {
            let statement = try connection.batchedStatement(write)
            statement.reset()
            statement.bind(values)
            try statement.step()
            _ = try connection.markCommit(tables: nil)
            try connection.commit()
        } catch {
            try? connection.rollback()
            throw error
        }
    }

    @Test func aRowWrittenAgainGoesPreparedAndArrivesExactly() throws {
        let connection = try connect()
        let before = connection.statementsSent
        try commitOne(Self.row(1), on: connection)
        // BEGIN, the preparation, the row with the transaction's id, COMMIT.
        #expect(connection.statementsSent - before == 4)
        // A decimal goes as its text, which the statement casts.
        var large = Self.row(2)
        large[7] = .text("12345678901234567890.125")
        try commitOne(large, on: connection)
        try commitOne([.integer(3)] + Array(repeating: .null, count: Self.columns.count - 1), on: connection)
        #expect(connection.statementsSent - before == 4 + 3 + 3)
        #expect(connection.preparedStatements.count == 1)
        let stored = try connection.query(#"SELECT * FROM "it""em" ORDER BY id"#).rows
        #expect(stored == [Self.row(1), large, [.integer(3)] + Array(repeating: .null, count: Self.columns.count - 1)])
    }

    @Test func aValueOutOfFormGoesUnpreparedAndTheServerRefusesIt() throws {
        let connection = try connect()
        try commitOne(Self.row(1), on: connection)
        // Text for an integer column: the server reads it, and refuses it as it refuses any statement's.
        var bad = Self.row(2)
        bad[3] = .text("many")
        #expect(throws: StrataError.server(code: "22P02", message: #"invalid input syntax for type integer: "many""#, sql: Self.insert.sql)) {
            try commitOne(bad, on: connection)
        }
        #expect(connection.preparedStatements.count == 1)
        #expect(try connection.query(#"SELECT id FROM "it""em""#).rows == [[.integer(1)]])
    }

    @Test func aDuplicateThroughAPreparedStatementNamesTheColumn() throws {
        let connection = try connect()
        try commitOne(Self.row(1), on: connection)
        var duplicate = Self.row(2)
        duplicate[8] = Self.row(1)[8]
        #expect(throws: StrataError.uniquenessViolation(entity: "it\"em", attributes: ["name"])) { try commitOne(duplicate, on: connection) }
        #expect(connection.preparedStatements.count == 1)
        // The connection goes on.
        try commitOne(Self.row(3), on: connection)
        #expect(try connection.query(#"SELECT id FROM "it""em" ORDER BY id"#).rows == [[.integer(1)], [.integer(3)]])
    }

    @Test func anUpdateThatLosesToAConcurrentCommitIsAConflict() throws {
        let url = try Postgres.newDatabaseURL()
        let first = try PostgreSQLConnection.connect(PostgreSQLAddress(url: url))
        try first.execute(#"CREATE TABLE "counter" (id bigint PRIMARY KEY, value bigint)"#)
        try first.execute(#"INSERT INTO "counter" VALUES (1, 0)"#)
        let second = try PostgreSQLConnection.connect(PostgreSQLAddress(url: url))
        let update = BatchedWrite.update("counter", columns: [.init(name: "value", type: .int64)], key: "id")
        // Prepared on both connections first.
        try commitOne([.integer(1), .integer(1)], update, on: first)
        try commitOne([.integer(2), .integer(1)], update, on: second)
        try first.beginWriteTransaction()
        #expect(try first.query(#"SELECT value FROM "counter""#).rows == [[.integer(2)]])
        try commitOne([.integer(3), .integer(1)], update, on: second)
        let statement = try first.batchedStatement(update)
        statement.reset()
        statement.bind([.integer(3), .integer(1)])
        try statement.step()
        let error = #expect(throws: StrataError.self) { _ = try first.markCommit(tables: nil) }
        #expect(error?.conflict?.code == "40001")
        try first.rollback()
        #expect(first.preparedStatements.count == 1 && second.preparedStatements.count == 1)
    }
}
#endif
