import Foundation
import Synchronization

/// A throwaway PostgreSQL server for the tests: a new cluster (`initdb`) in this run's folder,
/// started with `pg_ctl` on a Unix socket only (no TCP port, so runs never clash), trusting local
/// connections (no password), and stopped when the test process exits.
///
/// The server programs are found through `pg_config --bindir`, then Debian's layout
/// (`/usr/lib/postgresql/<major>/bin`). PostgreSQL refuses to run as root, so when the tests run
/// as root the cluster belongs to, and the server runs as, the `postgres` user (or `nobody`).
public enum PostgresTestServer {
    /// A running server: where to connect, and each test's own database on it.
    public struct Running: Sendable {
        /// The folder holding the server's Unix socket.
        public let socketFolder: String
        /// The socket file itself, as postgres-nio's `unixSocketPath` wants it.
        public var socketPath: String { socketFolder + "/.s.PGSQL.5432" }
        /// The superuser the cluster was created with.
        public let user: String
        /// The cluster's data folder.
        let dataFolder: String
        /// `pg_ctl start`'s arguments after the data folder.
        let startArguments: [String]
        /// A role that must log in with ``password`` (SCRAM-SHA-256), for tests of passwords.
        public let passwordUser = PostgresTestServer.passwordUser
        /// ``passwordUser``'s password.
        public let password = PostgresTestServer.password

        /// A URL for `database` on this server: `postgres://strata@/<database>?host=<socket folder>`.
        public func url(database: String) -> String {
            "postgres://\(user)@/\(database)?host=\(socketFolder)"
        }

        /// Stops the server at once, as a crash would (`pg_ctl stop -m immediate`: every connection
        /// dropped, nothing flushed first), and starts it again; returns once it takes connections.
        public func restart() throws {
            try kill()
            try start()
        }

        /// Starts the server again after ``kill()``; returns once it takes connections.
        public func start() throws {
            try PostgresTestServer.run(PostgresTestServer.tool("pg_ctl"), ["-D", dataFolder] + startArguments, asServerUser: true)
        }

        /// Stops the server at once, as a crash would, and leaves it stopped.
        public func kill() throws {
            try PostgresTestServer.run(PostgresTestServer.tool("pg_ctl"), ["-D", dataFolder, "-m", "immediate", "-s", "-w", "stop"],
                                       asServerUser: true)
        }

        /// Creates a new, empty database named `prefix_<n>` and returns its name.
        public func createDatabase(_ prefix: String = "test") throws -> String {
            let name = prefix + "_" + String(PostgresTestServer.counter.add(1, ordering: .relaxed).newValue)
            try PostgresTestServer.run(PostgresTestServer.tool("createdb"), ["-h", socketFolder, "-U", user, name], asServerUser: false)
            return name
        }

        /// The process id of a server session listening for notifications in `database`, once
        /// there is one other than `other` (a listener's `LISTEN` is its last statement).
        public func listeningSession(in database: String, other: Int? = nil) async throws -> Int {
            // Idle: its LISTEN has completed (a notification sent while it still ran is not heard).
            let sql = "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND state = 'idle' ORDER BY pid"
            while true {
                let pids = try psql(sql, database: database).split(separator: "\n").compactMap { Int($0) }
                if let pid = pids.first(where: { $0 != other }) { return pid }
                try await Task.sleep(for: .milliseconds(5))
            }
        }

        /// Runs `sql` with `psql` on `database`, returning what it printed (unaligned, tuples only).
        @discardableResult
        public func psql(_ sql: String, database: String) throws -> String {
            try PostgresTestServer.run(PostgresTestServer.tool("psql"),
                                       ["-h", socketFolder, "-U", user, "-d", database, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql],
                                       asServerUser: false)
        }
    }

    /// Why the server could not be started.
    public struct Unavailable: Error, CustomStringConvertible {
        /// What went wrong, for the test's report.
        public let description: String
    }

    /// The server of this test process, started on first use; the error says why there is none
    /// (no PostgreSQL installed, or it failed to start).
    public static func shared() throws(Unavailable) -> Running {
        try started.get()
    }

    /// Whether the PostgreSQL server programs are installed.
    public static var isInstalled: Bool { binFolder != nil }

    private static let started: Result<Running, Unavailable> = Result { () throws(Unavailable) -> Running in
        do { return try start() } catch let error as Unavailable { throw error } catch { throw Unavailable(description: "\(error)") }
    }

    /// A server of the caller's own, beside the shared one, for a test that must see no other
    /// test's transactions (transaction ids are counted across a server's databases); stopped
    /// when the test process exits. Its autovacuum is off: an automatic ANALYZE takes a
    /// transaction id too, which such a test would count as another program's commit.
    public static func startPrivate() throws -> Running {
        try start(options: "-c autovacuum=off")
    }

    fileprivate static let counter = Atomic<Int>(0)
    private static let dataFolders = Mutex<[String]>([])

    private static let binFolder: String? = {
        var candidates: [String] = []
        if let output = try? run("/usr/bin/env", ["pg_config", "--bindir"], asServerUser: false) {
            candidates.append(output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let debian = "/usr/lib/postgresql"
        let majors = ((try? FileManager.default.contentsOfDirectory(atPath: debian)) ?? []).compactMap(Int.init).sorted(by: >)
        candidates += majors.map { "\(debian)/\($0)/bin" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
    }()

    static func tool(_ name: String) throws(Unavailable) -> String {
        guard let binFolder else {
            throw Unavailable(description: "PostgreSQL is not installed (no initdb through `pg_config --bindir` or in /usr/lib/postgresql/*/bin)")
        }
        return binFolder + "/" + name
    }

    /// The user the server runs as when the tests run as root.
    static var serverUser: String? {
        guard getuid() == 0 else { return nil }
        return getpwnam("postgres") != nil ? "postgres" : "nobody"
    }

    static func start(options extra: String = "") throws -> Running {
        let (folder, data, sockets) = try serverFolders()
        let user = "strata"
        try run(tool("initdb"), ["-D", data, "-U", user, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"], asServerUser: true)
        // Every local user is trusted but one, whose password is checked.
        let rules = data + "/pg_hba.conf"
        let trusted = try String(contentsOfFile: rules, encoding: .utf8)
        try ("local all \(passwordUser) scram-sha-256\n" + trusted).write(toFile: rules, atomically: false, encoding: .utf8)
        let running = try launch(folder: folder, data: data, sockets: sockets, user: user, options: extra)
        try running.psql("CREATE ROLE \(passwordUser) LOGIN PASSWORD '\(password)'", database: "postgres")
        return running
    }

    /// A new server folder in this run's folder, with its data and socket folders' paths (the
    /// socket folder made, and both reachable by the server's user).
    static func serverFolders() throws -> (folder: URL, data: String, sockets: String) {
        let folder = TestFolders.memoryURL("postgres")
        let data = folder.appendingPathComponent("data").path
        let sockets = folder.appendingPathComponent("run").path
        try FileManager.default.createDirectory(atPath: sockets, withIntermediateDirectories: true)
        if let serverUser, let account = getpwnam(serverUser) {
            // The server's user must reach its folders inside this run's folder.
            chmod(folder.deletingLastPathComponent().path, 0o755)
            for path in [folder.path, sockets] { chown(path, account.pointee.pw_uid, account.pointee.pw_gid) }
        }
        return (folder, data, sockets)
    }

    /// Starts the cluster in `data` (stopped when the test process exits) and returns once it
    /// takes connections.
    static func launch(folder: URL, data: String, sockets: String, user: String, options extra: String) throws -> Running {
        dataFolders.withLock { folders in
            if folders.isEmpty { atexit { PostgresTestServer.stopAtExit() } }
            folders.append(data)
        }
        // Shared memory segments in the data folder (`mmap`), not in /dev/shm, where a server
        // stopped at once would leave them. 1,500 connections: a pass runs a hundred stacks at
        // once (each keeps up to a dozen) beside eight child processes of eight writers; 600 ran
        // out once tests no longer waited for each other's child processes.
        let options = "-k \(sockets) -c listen_addresses='' -c fsync=off -c max_connections=1500 -c max_prepared_transactions=0 "
            + "-c dynamic_shared_memory_type=mmap \(extra)"
        let startArguments = ["-o", options, "-l", folder.appendingPathComponent("server.log").path, "-w", "-s", "start"]
        try run(tool("pg_ctl"), ["-D", data] + startArguments, asServerUser: true)
        return Running(socketFolder: sockets, user: user, dataFolder: data, startArguments: startArguments)
    }

    fileprivate static let passwordUser = "strata_password"
    fileprivate static let password = "right-password"

    private static func stopAtExit() {
        guard let pgCtl = try? tool("pg_ctl") else { return }
        for data in dataFolders.withLock({ $0 }) {
            _ = try? run(pgCtl, ["-D", data, "-m", "immediate", "-s", "-w", "stop"], asServerUser: true)
        }
    }

    /// `posix_spawn_file_actions_addclosefrom_np(actions, 3)`: glibc has it since 2.34, but Swift's
    /// Glibc module does not declare it, so it is looked up by name.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) -> Int32 {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return ENOSYS }
        return unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }

    /// Runs a program to its end and returns its standard output; a failure carries its standard error.
    ///
    /// Spawned and waited for directly: Foundation's `Process` learns of an exit through a
    /// descriptor the child inherits, which the server `pg_ctl start` leaves running would keep
    /// open, so waiting for `pg_ctl` would wait for the server to stop.
    @discardableResult
    static func run(_ program: String, _ arguments: [String], asServerUser: Bool) throws -> String {
        var command = [program] + arguments
        if asServerUser, let serverUser {
            command = ["/usr/bin/setpriv", "--reuid=\(serverUser)", "--regid=\(serverUser)", "--init-groups", "--"] + command
        }
        let output = TestFolders.root.appendingPathComponent("postgres-tool-\(UUID().uuidString)").path
        defer {
            unlink(output)
            unlink(output + ".err")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, output + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // Nothing else of this process's: `pg_ctl start` leaves the server running with whatever
        // it inherited, and a pipe another test opened for its child at that moment (Foundation's
        // pipes are inheritable) would then never reach its end, and that test would wait forever.
        guard closeInheritedDescriptors(&actions) == 0 else { throw Unavailable(description: "cannot keep descriptors from \(command[0])") }
        var argv = command.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // A thread of this process may block signals (Swift's and Dispatch's threads do), and a
        // child inherits that mask: PgBouncer, which never unblocks them, would ignore the
        // SIGTERM that stops it. The child starts with no signal blocked and every one at its default.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, &attributes, &argv, environ)
        guard spawned == 0 else { throw Unavailable(description: "cannot start \(command[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        let complaint = (try? String(contentsOfFile: output + ".err", encoding: .utf8)) ?? ""
        let exitCode = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        guard exitCode == 0 else {
            throw Unavailable(description: "\((program as NSString).lastPathComponent) \(arguments.joined(separator: " ")) failed "
                              + "(exit \(exitCode)): " + complaint)
        }
        return printed
    }
}
