// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import Strata

/// Connecting and logging in: the first server of an address that answers as the kind it asks for,
/// within its timeout, and why a connection failed, in words a user can act on.
extension PostgreSQLConnection {
    /// Connects and logs in, to the first of the address's servers that answers and is the kind
    /// its `target_session_attrs` asks for; any failure is
    /// ``StrataError/serverUnavailable(server:database:reason:)`` naming the server (every one
    /// tried, each with its reason, when the address names several), the database and the reason
    /// (down, no such database, wrong password, not a primary). `sessionless`: the address is a
    /// pooler's in transaction mode (see ``sessionless``).
    static func connect(_ address: PostgreSQLAddress, sessionless: Bool = false) throws(StrataError) -> PostgreSQLConnection {
        var reasons: [String] = []
        for endpoint in address.endpoints {
            do throws(StrataError) {
                let connection = try connect(endpoint, of: address, sessionless: sessionless)
                guard address.targetSession != .any else { return connection }
                let sql = "SELECT pg_is_in_recovery()"
                let inRecovery = try connection.query(sql).rows.first?.first == .integer(1)
                if address.targetSession.accepts(inRecovery: inRecovery) { return connection }
                connection.close()
                throw .serverUnavailable(server: PostgreSQLAddress.name(endpoint), database: address.database,
                                                    reason: inRecovery ? "it is a standby, not a primary" : "it is a primary, not a standby")
            } catch {
                guard address.endpoints.count > 1 else { throw error }
                guard case .serverUnavailable(let server, _, let reason) = error else { throw error }
                reasons.append("\(server): \(reason)")
            }
        }
        let wanted = address.targetSession == .any ? "none answered" : "none answered as a \(address.targetSession.rawValue) server"
        throw .serverUnavailable(server: address.server, database: address.database, reason: wanted + " (" + reasons.joined(separator: "; ") + ")")
    }

    /// Connects and logs in to one server of `address`.
    private static func connect(_ endpoint: PostgreSQLAddress.Endpoint, of address: PostgreSQLAddress,
                                sessionless: Bool) throws(StrataError) -> PostgreSQLConnection {
        let server = PostgreSQLAddress.name(endpoint)
        let configuration: PostgresConnection.Configuration
        do {
            configuration = try Self.configuration(endpoint, address)
        } catch {
            throw .serverUnavailable(server: server, database: address.database, reason: "TLS could not be set up: \(error)")
        }
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let id = ids.add(1, ordering: .relaxed).newValue
        do {
            let pending = PostgresConnection.connect(on: eventLoop, configuration: configuration, id: id, logger: quietLogger)
            let connection = try loggedIn(pending, within: address.connectTimeout)
            return PostgreSQLConnection(address: address, server: server, connection: connection, sessionless: sessionless)
        } catch {
            throw .serverUnavailable(server: server, database: address.database, reason: reason(error))
        }
    }

    /// Waits for a connection to log in, up to `limit` (nil: as long as it takes). A server that
    /// accepts the connection and then never answers (stuck, or stopping) fails it with
    /// ``LoginTimedOut`` instead of holding the caller for good; a login that completes after
    /// that is closed at once.
    private static func loggedIn(_ pending: EventLoopFuture<PostgresConnection>, within limit: Duration?) throws -> PostgresConnection {
        guard let limit else { return try pending.wait() }
        let eventLoop = pending.eventLoop
        let promise = eventLoop.makePromise(of: PostgresConnection.self)
        let timeout = eventLoop.scheduleTask(in: TimeAmount(limit)) {
            promise.fail(LoginTimedOut(limit: limit))
            pending.whenSuccess { late in _ = late.close() as EventLoopFuture<Void> }
        }
        // Both run on the connection's event loop, so exactly one of them decides the promise.
        pending.whenComplete { result in
            timeout.cancel()
            promise.completeWith(result)
        }
        return try promise.futureResult.wait()
    }

    /// A login that did not complete within the address's `connect_timeout`.
    struct LoginTimedOut: Error {
        let limit: Duration
    }

    private static func configuration(_ endpoint: PostgreSQLAddress.Endpoint, _ address: PostgreSQLAddress) throws -> PostgresConnection.Configuration {
        switch endpoint {
        case .socket(let folder, let port):
            return PostgresConnection.Configuration(unixSocketPath: folder + "/.s.PGSQL.\(port)", username: address.user,
                                                    password: address.password, database: address.database)
        case .tcp(let host, let port):
            let tls: PostgresConnection.Configuration.TLS
            switch address.tlsMode {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
            return PostgresConnection.Configuration(host: host, port: port, username: address.user, password: address.password,
                                                    database: address.database, tls: tls)
        }
    }

    /// Why a connection failed, in the server's words when it said something.
    static func reason(_ error: any Error) -> String {
        if let timedOut = error as? LoginTimedOut {
            return "it did not answer the login within \(timedOut.limit.components.seconds) s (the URL's connect_timeout); "
                + "is the server overloaded, stopping or stuck?"
        }
        guard let error = error as? PSQLError else { return String(describing: error) }
        if let info = error.serverInfo, let message = info[.message] {
            if info[.sqlState] == "53300" {
                return message + " (SQLSTATE 53300): the server has no connection left for this app; raise its max_connections "
                    + "(or the role's or database's CONNECTION LIMIT), or lower maximumWriters across the app servers"
            }
            return message + (info[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
        }
        switch error.code {
        case .serverClosedConnection, .clientClosedConnection: return "the connection was closed"
        default: break
        }
        if let underlying = error.underlying { return systemReason(underlying) }
        return error.code.description
    }

    /// Why the system could not reach the server: no server there, refused, unreachable, too slow.
    private static func systemReason(_ error: any Error) -> String {
        if let error = error as? IOError {
            let system = String(cString: strerror(error.errnoCode))
            switch error.errnoCode {
            case ENOENT: return "no server listens there (\(system)); is PostgreSQL running, and is this its socket folder?"
            case ECONNREFUSED: return "the server refused the connection (\(system)); is PostgreSQL running and listening on that port?"
            default: return system
            }
        }
        if let error = error as? NIOConnectionError {
            if let failure = error.connectionErrors.first { return systemReason(failure.error) }
            if error.dnsAError != nil || error.dnsAAAAError != nil { return "the host name could not be resolved" }
        }
        if let error = error as? ChannelError, case .connectTimeout = error {
            return "no answer within the connection timeout; is the host reachable and the port open?"
        }
        return String(describing: error)
    }
}
#endif
