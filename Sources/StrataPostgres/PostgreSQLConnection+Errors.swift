// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import Foundation
import PostgresNIO
import Strata

/// Server errors as `StrataError`s: what the server said with its SQLSTATE, the conflicts a transaction
/// runs again for, uniqueness violations by column, and lost sessions.
extension PostgreSQLConnection {
    /// Whether `error` says a statement's session is over: the server's last answer before it
    /// closes the session (severity `FATAL` or `PANIC`: `pg_terminate_backend`, a shutdown, a
    /// crashed sibling backend), or the socket closed or failed under the statement. Either can
    /// arrive before postgres-nio marks the connection closed.
    static func endsTheSession(_ error: any Error) -> Bool {
        if let fields = ServerErrorFields(error) { return fields.severity == "FATAL" || fields.severity == "PANIC" }
        if case .connectionClosed? = error as? PostgresError { return true }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .serverClosedConnection, .uncleanShutdown, .connectionError:
            return true
        default:
            return false
        }
    }

    /// A statement's error: what the server said, with its SQLSTATE, or why the connection failed.
    func failure(_ error: any Error, sql: String) -> StrataError {
        if Self.endsTheSession(error) { return .connectionLost(server: server, database: address.database) }
        if let info = ServerErrorFields(error) {
            let code = info.sqlState ?? "?"
            // A statement after a serialization failure or deadlock reports that conflict, so that
            // the transaction runs again even when a read that cannot throw met it first.
            if code == "25P02", let abortedBy, abortedBy.conflict != nil { return abortedBy }
            if code == "25P02", let abortedBy {
                return .server(code: code, message: "an earlier statement of this transaction failed, so PostgreSQL ignores the rest of it "
                               + "until it ends; that statement's error: \(abortedBy)", sql: sql)
            }
            if code == "55P03" {
                return .storeBusy(file: address.description, milliseconds: lockTimeoutMilliseconds)
            }
            if code == "22021", info.message?.contains("0x00") == true {
                return .server(code: code, message: "PostgreSQL's text cannot hold the character U+0000 (NUL), which SQLite's can: "
                               + "store such values as Data", sql: sql)
            }
            if code == "23505", let table = info.tableName, let columns = info.detail.flatMap(Self.keyColumns) {
                return .uniquenessViolation(entity: table, attributes: columns)
            }
            let message = [info.message, info.detail].compactMap { $0 }.joined(separator: ": ")
            return .server(code: code, message: message, sql: sql)
        }
        if isBroken { return .connectionLost(server: server, database: address.database) }
        return .serverUnavailable(server: server, database: address.database, reason: Self.reason(error))
    }

    /// The columns a unique-violation detail names: `Key (sku)=(W-1) already exists.` gives
    /// `["sku"]`, `Key ("order", kind)=(1, a) ...` gives `["order", "kind"]`.
    static func keyColumns(_ detail: String) -> [String]? {
        guard detail.hasPrefix("Key ("), let end = detail.range(of: ")=(") else { return nil }
        let list = detail[detail.index(detail.startIndex, offsetBy: 5)..<end.lowerBound]
        return list.split(separator: ", ").map { name in
            name.hasPrefix("\"") && name.hasSuffix("\"") && name.count >= 2
                ? name.dropFirst().dropLast().replacingOccurrences(of: "\"\"", with: "\"") : String(name)
        }
    }
}
#endif
