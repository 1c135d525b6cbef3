// Compiled with the PostgreSQL trait only (see Package.swift).
#if PostgreSQL
import Foundation
import Strata
@testable import StrataPostgres
import StrataTestSupport
import Testing

@Suite("PostgreSQL connections", Postgres.available)
struct PostgreSQLConnectionTests {
    private func connect() throws -> PostgreSQLConnection {
        try PostgreSQLConnection.connect(PostgreSQLAddress(url: Postgres.newDatabaseURL()))
    }

    @Test func valuesRoundTripThroughNaturalTypes() throws {
        let connection = try connect()
        try connection.execute("""
            CREATE TABLE t (i8 bigint, i4 integer, i2 smallint, b boolean, d double precision, f real, s text COLLATE "C", \
            y bytea, u uuid, n numeric)
            """)
        let uuid = UUID()
        let uuidBytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
        let doubles: [Double] = [0, -0.0, 0.1, Double(bitPattern: 0x000F_0000_0000_0001), .leastNonzeroMagnitude, .greatestFiniteMagnitude, -.pi, .infinity, -.infinity]
        for (index, double) in doubles.enumerated() {
            try connection.query("INSERT INTO t VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)", [
                .integer(Int64.min + Int64(index)), .integer(Int64(Int32.max)), .integer(Int64(Int16.min)), .integer(Int64(index % 2)),
                .real(double), .real(Double(Float(0.1))), .text("ü'\"\u{0}x".replacingOccurrences(of: "\u{0}", with: "")),
                .blob([0, 1, 255]), .blob(uuidBytes), .text("-12345678901234567890.0001200"),
            ])
        }
        let result = try connection.query("SELECT * FROM t")
        #expect(result.columns == ["i8", "i4", "i2", "b", "d", "f", "s", "y", "u", "n"])
        #expect(result.rows.count == doubles.count)
        for (index, row) in result.rows.enumerated() {
            #expect(row[0] == .integer(Int64.min + Int64(index)))
            #expect(row[1] == .integer(Int64(Int32.max)))
            #expect(row[2] == .integer(Int64(Int16.min)))
            #expect(row[3] == .integer(Int64(index % 2)))
            guard case .real(let double) = row[4] else { Issue.record("not a double: \(row[4])"); continue }
            #expect(double.bitPattern == doubles[index].bitPattern)
            #expect(row[5] == .real(Double(Float(0.1))))
            #expect(row[6] == .text("ü'\"x"))
            #expect(row[7] == .blob([0, 1, 255]))
            #expect(row[8] == .blob(uuidBytes))
            #expect(row[9] == .text("-12345678901234567890.0001200"))
        }
        #expect(try connection.query("UPDATE t SET i4 = $1 WHERE b", [.integer(7)]).changes == 4)
        #expect(try connection.query("SELECT NULL::bigint AS nothing").rows == [[.null]])
    }

    @Test(arguments: ["0", "1", "-1", "0.5", "10000", "123456789.000001", "NaN", "-0.00001", "99999999999999999999999999999999999999"])
    func numericTextIsExact(text: String) throws {
        let connection = try connect()
        #expect(try connection.query("SELECT $1::numeric AS n", [.text(text)]).rows == [[.text(text)]])
    }

    @Test func serverErrorsCarryTheirCode() throws {
        let connection = try connect()
        #expect(throws: StrataError.server(code: "42P01", message: "relation \"missing\" does not exist", sql: "SELECT * FROM missing")) {
            try connection.query("SELECT * FROM missing")
        }
        // The connection stays usable after a failed statement outside a transaction.
        #expect(try connection.query("SELECT 1 AS one").rows == [[.integer(1)]])
    }

    @Test func aStatementAfterAFailedOneNamesTheFirstFailure() throws {
        let connection = try connect()
        try connection.execute("BEGIN")
        #expect(throws: StrataError.self) { try connection.execute("SELECT * FROM missing") }
        #expect(throws: StrataError.server(code: "25P02", message: "an earlier statement of this transaction failed, so PostgreSQL ignores "
                                           + "the rest of it until it ends; that statement's error: the database server refused a statement "
                                           + "(SQLSTATE 42P01): relation \"missing\" does not exist (in: SELECT * FROM missing)", sql: "SELECT 1")) {
            try connection.execute("SELECT 1")
        }
        try connection.execute("ROLLBACK")
        try connection.execute("SELECT 1")
    }

    /// The server answers the statement with a FATAL error and only then closes the socket: the
    /// answer already says the session is over, however soon the close is seen.
    @Test func aFatalAnswerIsALostConnectionNotAServerError() throws {
        let connection = try connect()
        try connection.execute("BEGIN")
        let lost = StrataError.connectionLost(server: connection.address.server, database: connection.address.database)
        #expect(throws: lost) { try connection.execute("SELECT pg_terminate_backend(pg_backend_pid())") }
        #expect(connection.isBroken)
        #expect(connection.isInTransaction == false)
        #expect(throws: lost) { try connection.execute("SELECT 1") }
    }

    /// Of a URL's several servers, a lost connection names the one it had reached.
    @Test func aLostConnectionNamesTheServerItReachedOfSeveral() throws {
        let server = try Postgres.server()
        let database = try server.createDatabase("reached")
        let absent = TestFolders.url("strata-no-server").path
        let address = try PostgreSQLAddress(url: "postgres://\(server.user)@/\(database)?host=\(absent),\(server.socketFolder)")
        let connection = try PostgreSQLConnection.connect(address)
        #expect(connection.server == "the Unix socket in \(server.socketFolder) (port 5432)")
        #expect(throws: StrataError.connectionLost(server: connection.server, database: database)) {
            try connection.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        }
    }

    @Test func missingDatabaseNamesIt() throws {
        let server = try Postgres.server()
        let address = try PostgreSQLAddress(url: server.url(database: "no_such_db"))
        #expect(throws: StrataError.serverUnavailable(server: address.server, database: "no_such_db",
                                                       reason: "database \"no_such_db\" does not exist (SQLSTATE 3D000)")) {
            try PostgreSQLConnection.connect(address)
        }
    }

    @Test func aWrongPasswordIsRefusedAndTheRightOneLogsIn() throws {
        let server = try Postgres.server()
        let wrong = try PostgreSQLAddress(url: "postgres://\(server.passwordUser):not-it@/postgres?host=\(server.socketFolder)")
        #expect(throws: StrataError.serverUnavailable(server: wrong.server, database: "postgres",
                                                       reason: "password authentication failed for user \"\(server.passwordUser)\" (SQLSTATE 28P01)")) {
            try PostgreSQLConnection.connect(wrong)
        }
        let missing = try PostgreSQLAddress(url: "postgres://\(server.passwordUser)@/postgres?host=\(server.socketFolder)")
        #expect(throws: StrataError.self) { try PostgreSQLConnection.connect(missing) }
        let right = try PostgreSQLAddress(url: "postgres://\(server.passwordUser):\(server.password)@/postgres?host=\(server.socketFolder)")
        #expect(try PostgreSQLConnection.connect(right).query("SELECT current_user").rows == [[.text(server.passwordUser)]])
    }

    /// A server that accepts the connection and never answers (stuck, or stopping) is unavailable
    /// once the URL's `connect_timeout` has passed, instead of holding the caller for good.
    @Test func aServerThatNeverAnswersTheLoginIsUnavailableAfterTheConnectTimeout() throws {
        let silent = try SilentListener()
        let address = try PostgreSQLAddress(url: "postgres://app@127.0.0.1:\(silent.port)/pets?connect_timeout=1")
        #expect(throws: StrataError.serverUnavailable(server: "127.0.0.1:\(silent.port)", database: "pets",
                                                       reason: "it did not answer the login within 1 s (the URL's connect_timeout); "
                                                           + "is the server overloaded, stopping or stuck?")) {
            try PostgreSQLConnection.connect(address)
        }
    }

    @Test func unknownRoleIsRefused() throws {
        let server = try Postgres.server()
        let address = try PostgreSQLAddress(url: "postgres://nobody_here@/postgres?host=\(server.socketFolder)")
        #expect(throws: StrataError.serverUnavailable(server: address.server, database: "postgres",
                                                       reason: "role \"nobody_here\" does not exist (SQLSTATE 28000)")) {
            try PostgreSQLConnection.connect(address)
        }
    }
}

@Suite("PostgreSQL connections as the runtime drives them", Postgres.available)
struct PostgreSQLDatabaseConnectionTests {
    @Test func statementsBindStepAndRead() throws {
        let url = try Postgres.newDatabaseURL()
        let connection: any DatabaseConnection = try PostgreSQLConnection.connect(PostgreSQLAddress(url: url))
        #expect(connection.dialect == .postgresql)
        try connection.execute(#"CREATE TABLE "t?" (id bigint PRIMARY KEY, name text COLLATE "C", ratio double precision)"#)
        let insert = try connection.cachedStatement(#"INSERT INTO "t?" (id, name, ratio) VALUES (?, ?, ?)"#)
        for (id, name) in [(1, "b"), (2, "a"), (3, "c")] {
            insert.bind(Int64(id), at: 1)
            insert.bind(name, at: 2)
            insert.bind(-0.0, at: 3)
            #expect(try insert.step() == false)
            #expect(connection.changes == 1)
            insert.reset()
        }
        let select = try connection.cachedStatement(#"SELECT id, name, ratio FROM "t?" WHERE id >= ? ORDER BY name"#)
        select.bind([.integer(2)])
        var rows: [[SQLValue]] = []
        while try select.step() {
            rows.append((0..<select.columnCount).map { select.row.value($0) })
        }
        #expect(rows == [[.integer(2), .text("a"), .real(-0.0)], [.integer(3), .text("c"), .real(-0.0)]])
        #expect(select.columnName(1) == "name")
        #expect(select.row.double(2).sign == .minus)
        // The cached statement comes back reset: bindings cleared, rows forgotten.
        let again = try connection.cachedStatement(#"SELECT id, name, ratio FROM "t?" WHERE id >= ? ORDER BY name"#)
        #expect(again === select)
        again.bind(Int64(3), at: 1)
        #expect(try again.step())
        #expect(again.row.int64(0) == 3)
        #expect(try again.step() == false)
    }

    @Test func writeTransactionsRunSideBySideAndALostUpdateFails() throws {
        let url = try Postgres.newDatabaseURL()
        let first = try PostgreSQLConnection.connect(PostgreSQLAddress(url: url))
        let second = try PostgreSQLConnection.connect(PostgreSQLAddress(url: url))
        try first.execute("CREATE TABLE t (id bigint PRIMARY KEY, n bigint)")
        try first.execute("INSERT INTO t VALUES (1, 0), (2, 0)")
        #expect(first.writesSideBySide)
        try first.beginWriteTransaction()
        try second.beginWriteTransaction()
        #expect(first.isInTransaction && second.isInTransaction)
        // Both read n = 0; each writes its own row without waiting for the other.
        #expect(try first.query("SELECT n FROM t WHERE id = 1").rows == [[.integer(0)]])
        #expect(try second.query("SELECT n FROM t WHERE id = 1").rows == [[.integer(0)]])
        try first.query("UPDATE t SET n = 1 WHERE id = 1")
        try second.query("UPDATE t SET n = 1 WHERE id = 2")
        let firstID = try first.markCommit(tables: ["t"])
        try first.commit()
        // The second read n = 0 too: adding 1 to what it read would lose the first's update.
        #expect(throws: StrataError.server(code: "40001", message: "could not serialize access due to concurrent update",
                                           sql: "UPDATE t SET n = n + 1 WHERE id = 1")) {
            try second.query("UPDATE t SET n = n + 1 WHERE id = 1")
        }
        try second.rollback()
        #expect(try first.query("SELECT n FROM t ORDER BY id").rows == [[.integer(1)], [.integer(0)]])
        // A later snapshot sees the first's commit by its transaction id; an earlier one did not.
        try second.beginReadTransaction()
        let snapshot = try second.snapshotMark()
        #expect(snapshot.includes(firstID))
        #expect(!snapshot.includes(snapshot.next))
        try second.rollback()
    }

    @Test func aReadTransactionReadsOneCommittedState() throws {
        let url = try Postgres.newDatabaseURL()
        let reader = try PostgreSQLConnection.connect(PostgreSQLAddress(url: url))
        let writer = try PostgreSQLConnection.connect(PostgreSQLAddress(url: url))
        try writer.execute("CREATE TABLE t (id bigint)")
        let count = "SELECT count(*) AS n FROM t"
        try reader.beginReadTransaction()
        #expect(try reader.query(count).rows == [[.integer(0)]])
        try writer.beginWriteTransaction()
        try writer.query("INSERT INTO t VALUES ($1)", [.integer(1)])
        try writer.commit()
        #expect(try reader.query(count).rows == [[.integer(0)]])
        #expect(throws: StrataError.server(code: "25006", message: "cannot execute INSERT in a read-only transaction", sql: "INSERT INTO t VALUES (2)")) {
            try reader.query("INSERT INTO t VALUES (2)")
        }
        try reader.rollback()
        #expect(try reader.query(count).rows == [[.integer(1)]])
    }
}
/// A TCP port on the loopback address that takes connections (the system completes them) and
/// never reads or answers: a server stuck before the login.
private final class SilentListener {
    let port: Int
    private let socket: Int32

    init() throws {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 8) == 0 else {
            close(descriptor)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        socket = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(socket) }
}
#endif
