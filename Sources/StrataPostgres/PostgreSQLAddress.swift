// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import Foundation
import Strata

/// Where a PostgreSQL database is and who connects to it, read from a connection URL in libpq's
/// form: `postgres://user:password@host:port/database?sslmode=require`.
///
/// An empty host, or a `host=` query parameter that starts with `/`, names the folder of the
/// server's Unix socket (`postgres://app@/pets?host=/var/run/postgresql`). The user defaults to
/// the process's user, the port to 5432, the database to the user's name, as with `psql`.
public struct PostgreSQLAddress: Sendable, Hashable, CustomStringConvertible {
    /// How the server is reached.
    public enum Endpoint: Sendable, Hashable {
        /// TCP to a host name or address and a port.
        case tcp(host: String, port: Int)
        /// A Unix socket: the folder that holds it and the port its name carries.
        case socket(folder: String, port: Int)
    }

    /// Whether the connection is encrypted, as libpq's `sslmode`.
    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        /// Never: plain TCP (the only mode on a Unix socket).
        case disable
        /// Encrypted when the server offers it, plain otherwise (libpq's default over TCP).
        case prefer
        /// Always encrypted, the server's certificate checked against the system's trusted roots.
        case require
    }

    /// How the server is reached.
    public let endpoint: Endpoint
    /// The role the connection logs in as.
    public let user: String
    /// The password, if the URL has one.
    public let password: String?
    /// The database.
    public let database: String
    /// Whether the connection is encrypted.
    public let tlsMode: TLSMode

    /// The address a URL names; a URL that is not a PostgreSQL URL is an error saying which part is wrong.
    public init(url text: String) throws(StrataError) {
        func refuse(_ reason: String) -> StrataError {
            .serverUnavailable(server: Self.redacted(text), database: "?", reason: reason)
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme else {
            throw refuse("not a URL; write postgres://user:password@host:port/database")
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw refuse("the URL's scheme is '\(scheme)'; a PostgreSQL URL starts with postgres://")
        }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard let value = item.value else { throw refuse("the URL parameter '\(item.name)' has no value") }
            query[item.name] = value
        }
        let known: Set<String> = ["host", "port", "sslmode", "user", "password", "dbname"]
        if let unknown = query.keys.sorted().first(where: { !known.contains($0) }) {
            throw refuse("the URL parameter '\(unknown)' is not one Strata reads (\(known.sorted().joined(separator: ", ")))")
        }
        let portText = query["port"] ?? components.port.map(String.init)
        let port: Int
        if let portText {
            guard let number = Int(portText), (1...65_535).contains(number) else { throw refuse("the port '\(portText)' is not a number from 1 to 65535") }
            port = number
        } else {
            port = 5432
        }
        let host = query["host"] ?? components.percentEncodedHost.flatMap { $0.removingPercentEncoding } ?? ""
        if host.isEmpty {
            endpoint = .socket(folder: "/var/run/postgresql", port: port)
        } else if host.hasPrefix("/") {
            endpoint = .socket(folder: host, port: port)
        } else {
            endpoint = .tcp(host: host, port: port)
        }
        user = query["user"] ?? components.user.flatMap { $0.isEmpty ? nil : $0 } ?? Self.processUser
        password = query["password"] ?? components.password
        var path = components.path
        if path.hasPrefix("/") { path.removeFirst() }
        if path.contains("/") { throw refuse("the database name '\(path)' holds a '/'; the URL's path is the database alone") }
        database = query["dbname"] ?? (path.isEmpty ? user : path)
        if let mode = query["sslmode"] {
            guard let parsed = TLSMode(rawValue: mode) else {
                throw refuse("sslmode '\(mode)' is not one of " + TLSMode.allCases.map(\.rawValue).joined(separator: ", "))
            }
            tlsMode = parsed
        } else {
            tlsMode = .prefer
        }
        if case .socket = endpoint, tlsMode == .require {
            throw refuse("sslmode=require asks for TLS, which a Unix socket does not use; remove it or connect over TCP")
        }
    }

    /// The server, as messages name it: `host:port`, or the socket folder and port.
    public var server: String {
        switch endpoint {
        case .tcp(let host, let port): return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .socket(let folder, let port): return "the Unix socket in \(folder) (port \(port))"
        }
    }

    /// `postgres://user@server/database`, never the password.
    public var description: String {
        switch endpoint {
        case .tcp: return "postgres://\(user)@\(server)/\(database)"
        case .socket(let folder, let port): return "postgres://\(user)@/\(database)?host=\(folder)" + (port == 5432 ? "" : "&port=\(port)")
        }
    }

    /// The login name of the process's user, libpq's default role.
    private static var processUser: String {
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return ProcessInfo.processInfo.environment["USER"] ?? "postgres"
    }

    /// A URL as an error may repeat it: the password replaced by `***`.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? text
    }
}
#endif
