import Foundation
import Synchronization

/// A throwaway PgBouncer in transaction mode in front of the throwaway PostgreSQL server: it
/// listens on a Unix socket in a folder of its own (no TCP port), trusts the server's superuser,
/// reaches every database of the server, and is stopped when the test process exits (or by
/// ``stop()``). Several may run at once, each in its folder.
public final class PostgresTestPooler: Sendable {
    /// The folder holding the pooler's Unix socket.
    public let socketFolder: String
    /// The port in the socket's name.
    public let port = 6432
    private let folder: URL
    private let server: PostgresTestServer.Running

    /// The pooler of the suite's PostgreSQL pass when `STRATA_TEST_POOLER=pgbouncer` (as `.ci/run`
    /// runs part of the suite a third time), started on first use; nil otherwise.
    public static func shared() throws -> PostgresTestPooler? {
        guard ProcessInfo.processInfo.environment["STRATA_TEST_POOLER"] == "pgbouncer" else { return nil }
        return try sharedPooler.get()
    }

    private static let sharedPooler = Result { try PostgresTestPooler(server: PostgresTestServer.shared(), poolSize: 20) }

    /// Whether PgBouncer is installed (Debian's `pgbouncer` package).
    public static var isInstalled: Bool { binary != nil }

    private static let binary: String? = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer", "/usr/local/bin/pgbouncer"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    private static let counter = Atomic<Int>(0)

    /// Starts a pooler in front of `server` that keeps at most `poolSize` server connections per
    /// database.
    public init(server: PostgresTestServer.Running, poolSize: Int) throws {
        guard let binary = Self.binary else {
            throw PostgresTestServer.Unavailable(description: "PgBouncer is not installed (Debian's pgbouncer package)")
        }
        self.server = server
        folder = TestFolders.url("pgbouncer-\(Self.counter.add(1, ordering: .relaxed).newValue)")
        socketFolder = folder.path
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let configuration = """
            [databases]
            * = host=\(server.socketFolder) port=5432
            [pgbouncer]
            listen_addr =
            listen_port = \(port)
            unix_socket_dir = \(socketFolder)
            auth_type = trust
            auth_file = \(socketFolder)/users.txt
            pool_mode = transaction
            default_pool_size = \(poolSize)
            max_client_conn = 2000
            max_db_connections = \(poolSize)
            ignore_startup_parameters = extra_float_digits,options
            logfile = \(socketFolder)/pgbouncer.log
            pidfile = \(socketFolder)/pgbouncer.pid

            """
        try configuration.write(to: folder.appendingPathComponent("pgbouncer.ini"), atomically: false, encoding: .utf8)
        try "\"\(server.user)\" \"\"\n".write(to: folder.appendingPathComponent("users.txt"), atomically: false, encoding: .utf8)
        if let user = PostgresTestServer.serverUser, let account = getpwnam(user) {
            chown(socketFolder, account.pointee.pw_uid, account.pointee.pw_gid)
        }
        self.binary = binary
        Self.running.withLock { pidFiles in
            if pidFiles.isEmpty { atexit { PostgresTestPooler.stopAll() } }
            pidFiles.append(folder.appendingPathComponent("pgbouncer.pid").path)
        }
        try start()
    }

    private let binary: String

    /// A URL of `database` (on the throwaway server) through this pooler.
    public func url(database: String) -> String {
        "postgres://\(server.user)@/\(database)?host=\(socketFolder)&port=\(port)"
    }

    /// The URL that reaches the same database as `directURL` (a URL of the throwaway server)
    /// through this pooler.
    public func url(sameDatabaseAs directURL: String) -> String {
        let database = URLComponents(string: directURL)?.path.dropFirst() ?? ""
        return url(database: String(database))
    }

    /// Stops the pooler (`SIGTERM`: at once, dropping every client and server connection; `SIGINT`
    /// would wait for them to end) and waits until it has gone.
    public func stop() {
        Self.stop(pidFile: folder.appendingPathComponent("pgbouncer.pid").path)
    }

    /// Starts the pooler again after ``stop()``, on the same socket.
    public func start() throws {
        unlink(socketFolder + "/.s.PGSQL.\(port)")
        try PostgresTestServer.run(binary, ["-d", folder.appendingPathComponent("pgbouncer.ini").path], asServerUser: true)
        // `-d` returns once the pooler has forked; its socket appears a moment later, and takes
        // connections a moment after that (the file exists from `bind`, before `listen`).
        let socket = socketFolder + "/.s.PGSQL.\(port)"
        var polls = 0
        while !Self.acceptsConnections(socket), polls < 500 {
            usleep(10_000)
            polls += 1
        }
    }

    /// Whether a client can connect to the Unix socket at `path` now (the connection is closed at once).
    private static func acceptsConnections(_ path: String) -> Bool {
        guard let descriptor = try? UnixSocket.connected(to: path) else { return false }
        close(descriptor)
        return true
    }

    private static let running = Mutex<[String]>([])

    private static func stopAll() {
        for pidFile in running.withLock({ $0 }) { stop(pidFile: pidFile) }
    }

    private static func stop(pidFile: String) {
        guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8), let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)),
              pid > 0 else { return }
        guard kill(pid, SIGTERM) == 0 else { return }
        for _ in 0..<500 where isRunning(pid) { usleep(10_000) }
        // The pooler may leave its pid file behind, and as a zombie nobody reaps (its parent is
        // the container's first process) it would still count as running when started again.
        unlink(pidFile)
    }

    /// Whether `pid` is a process that has not ended (neither gone nor a zombie).
    private static func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return true }
        return !stat[end...].hasPrefix(") Z")
    }
}
