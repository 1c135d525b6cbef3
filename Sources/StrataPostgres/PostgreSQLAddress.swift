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
///
/// Several servers may be named, as libpq allows (`postgres://app@db1:5432,db2:5432/pets`, or
/// `?host=db1,db2&port=5432,5433`): a connection tries them in order and keeps the first that
/// answers and is what `target_session_attrs` asks for (`read-write` or `primary`: not a standby;
/// `read-only` or `standby`: a standby; `any`, the default: whichever answers).
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

    /// The servers a connection tries, in order (one unless the URL names several).
    public let endpoints: [Endpoint]
    /// How the (first) server is reached.
    public var endpoint: Endpoint { endpoints[0] }
    /// Which kind of server a connection keeps, of those it reaches.
    public let targetSession: TargetSession

    /// The kind of server a connection keeps, as libpq's `target_session_attrs`.
    public enum TargetSession: String, Sendable, Hashable, CaseIterable {
        /// Whichever server answers first. The default.
        case any
        /// A server that takes writes: one not in recovery.
        case readWrite = "read-write"
        /// The same as ``readWrite`` (a server not in recovery).
        case primary
        /// A server in recovery (a hot standby), which takes reads only.
        case readOnly = "read-only"
        /// The same as ``readOnly``.
        case standby

        /// Whether a server with `inRecovery` is of this kind.
        func accepts(inRecovery: Bool) -> Bool {
            switch self {
            case .any: return true
            case .readWrite, .primary: return !inRecovery
            case .readOnly, .standby: return inRecovery
            }
        }
    }
    /// The role the connection logs in as.
    public let user: String
    /// The password, if the URL has one.
    public let password: String?
    /// The database.
    public let database: String
    /// Whether the connection is encrypted.
    public let tlsMode: TLSMode
    /// How long a connection may take to reach a server and log in before that server counts as
    /// unavailable (libpq's `connect_timeout`, in whole seconds; 0 for no limit): 30 seconds
    /// unless the URL says otherwise. With several hosts, each gets this long.
    public let connectTimeout: Duration?

    /// How long a connection waits for a login when the URL does not say.
    public static let defaultConnectTimeout = Duration.seconds(30)

    /// The address a URL names; a URL that is not a PostgreSQL URL is an error saying which part is wrong.
    public init(url text: String) throws(StrataError) {
        func refuse(_ reason: String) -> StrataError {
            .serverUnavailable(server: Self.redacted(text), database: "?", reason: reason)
        }
        let (single, listedHosts) = Self.splittingHostList(text)
        guard let components = URLComponents(string: single), let scheme = components.scheme else {
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
        let known: Set<String> = ["host", "port", "sslmode", "user", "password", "dbname", "target_session_attrs", "connect_timeout"]
        if let unknown = query.keys.sorted().first(where: { !known.contains($0) }) {
            throw refuse("the URL parameter '\(unknown)' is not one Strata reads (\(known.sorted().joined(separator: ", ")))")
        }
        let ports = try (query["port"] ?? components.port.map(String.init)).map { text throws(StrataError) in
            try text.split(separator: ",", omittingEmptySubsequences: false).map { (part: Substring) throws(StrataError) -> Int in
                guard let number = Int(part), (1...65_535).contains(number) else { throw refuse("the port '\(part)' is not a number from 1 to 65535") }
                return number
            }
        } ?? []
        // Each host with the port written beside it, else the port list's (one for all, or one each).
        let hosts: [(host: String, port: Int?)]
        if let listed = query["host"] {
            hosts = listed.split(separator: ",", omittingEmptySubsequences: false).map { (String($0), nil) }
        } else if let listedHosts {
            hosts = try listedHosts.map { entry throws(StrataError) in try Self.hostAndPort(entry, refuse: refuse) }
        } else {
            hosts = [(components.percentEncodedHost.flatMap { $0.removingPercentEncoding } ?? "", nil)]
        }
        guard ports.count <= 1 || ports.count == hosts.count else {
            throw refuse("the URL names \(hosts.count) hosts and \(ports.count) ports; give one port, or one for each host")
        }
        endpoints = hosts.enumerated().map { index, entry in
            let port = entry.port ?? (ports.count == hosts.count ? ports[index] : ports.first ?? 5432)
            if entry.host.isEmpty { return .socket(folder: "/var/run/postgresql", port: port) }
            return entry.host.hasPrefix("/") ? .socket(folder: entry.host, port: port) : .tcp(host: entry.host, port: port)
        }
        if let attributes = query["target_session_attrs"] {
            guard let parsed = TargetSession(rawValue: attributes) else {
                throw refuse("target_session_attrs '\(attributes)' is not one of " + TargetSession.allCases.map(\.rawValue).joined(separator: ", "))
            }
            targetSession = parsed
        } else {
            targetSession = .any
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
        if let seconds = query["connect_timeout"] {
            guard let number = Int(seconds), number >= 0 else {
                throw refuse("connect_timeout '\(seconds)' is not a whole number of seconds (0 for no limit)")
            }
            connectTimeout = number == 0 ? nil : .seconds(number)
        } else {
            connectTimeout = Self.defaultConnectTimeout
        }
        if endpoints.contains(where: { if case .socket = $0 { true } else { false } }), tlsMode == .require {
            throw refuse("sslmode=require asks for TLS, which a Unix socket does not use; remove it or connect over TCP")
        }
    }

    /// The server, as messages name it: `host:port`, or the socket folder and port; several,
    /// separated by commas.
    public var server: String {
        endpoints.map(Self.name).joined(separator: ", ")
    }

    /// How messages name one server.
    static func name(_ endpoint: Endpoint) -> String {
        switch endpoint {
        case .tcp(let host, let port): return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .socket(let folder, let port): return "the Unix socket in \(folder) (port \(port))"
        }
    }

    /// `postgres://user@server/database`, never the password.
    public var description: String {
        let session = targetSession == .any ? "" : "target_session_attrs=\(targetSession.rawValue)"
        guard endpoints.allSatisfy({ if case .tcp = $0 { true } else { false } }) else {
            let folders = endpoints.map { endpoint -> String in
                if case .socket(let folder, _) = endpoint { return folder }
                return Self.name(endpoint)
            }
            let ports = endpoints.map { endpoint -> Int in
                switch endpoint { case .socket(_, let port), .tcp(_, let port): return port }
            }
            let port = ports.allSatisfy { $0 == 5432 } ? "" : "&port=" + ports.map(String.init).joined(separator: ",")
            return "postgres://\(user)@/\(database)?host=\(folders.joined(separator: ","))" + port + (session.isEmpty ? "" : "&" + session)
        }
        return "postgres://\(user)@\(endpoints.map(Self.name).joined(separator: ","))/\(database)" + (session.isEmpty ? "" : "?" + session)
    }

    /// The login name of the process's user, libpq's default role.
    private static var processUser: String {
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return ProcessInfo.processInfo.environment["USER"] ?? "postgres"
    }

}
#endif
