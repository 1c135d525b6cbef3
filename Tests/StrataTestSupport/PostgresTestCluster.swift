import Foundation

/// A throwaway primary with hot standbys streaming from it (one unless asked for more), for the
/// tests of replicas and failover: clusters in this run's folder, each standby made by
/// `pg_basebackup -R` from the primary through a replication slot of its own, each server on a
/// Unix socket of its own, all stopped when the test process exits. Autovacuum is off on the primary, so the tests' transactions are the only
/// ones.
public struct PostgresTestCluster: Sendable {
    /// The server that takes writes (until a standby is promoted).
    public let primary: PostgresTestServer.Running
    /// The hot standbys, replaying the primary's WAL and taking reads.
    public let standbys: [PostgresTestServer.Running]
    /// The first standby (the one a failover promotes).
    public var standby: PostgresTestServer.Running { standbys[0] }

    /// Starts a primary and `standbys` standbys; with `synchronous`, the primary's commits wait
    /// until the first standby has the commit on disk (`synchronous_standby_names`,
    /// `synchronous_commit = on`).
    public static func start(standbys count: Int = 1, synchronous: Bool = false) throws -> PostgresTestCluster {
        let primary = try PostgresTestServer.start(options: "-c autovacuum=off -c wal_level=replica -c max_wal_senders=10 -c max_replication_slots=10")
        let standbys = try (0..<count).map { index in try startStandby(of: primary, named: index == 0 ? "standby" : "standby\(index + 1)") }
        if synchronous {
            // Only now: a primary waiting for a standby that is not there yet would wait for good.
            try primary.psql("ALTER SYSTEM SET synchronous_standby_names = 'standby'", database: "postgres")
            try primary.psql("ALTER SYSTEM SET synchronous_commit = 'on'", database: "postgres")
            try primary.psql("SELECT pg_reload_conf()", database: "postgres")
            try waitUntil(primary, answers: "SELECT count(*) = 1 FROM pg_stat_replication WHERE sync_state = 'sync'",
                          else: "the standby did not become synchronous")
        }
        return PostgresTestCluster(primary: primary, standbys: standbys)
    }

    /// Copies `primary` with `pg_basebackup` through a new replication slot called `name`, and
    /// starts the copy as a hot standby whose `cluster_name` (the name its walreceiver gives the
    /// primary, which `synchronous_standby_names` lists) is `name` too.
    private static func startStandby(of primary: PostgresTestServer.Running, named name: String) throws -> PostgresTestServer.Running {
        try primary.psql("SELECT pg_create_physical_replication_slot('\(name)')", database: "postgres")
        let (folder, data, sockets) = try PostgresTestServer.serverFolders()
        try PostgresTestServer.run(PostgresTestServer.tool("pg_basebackup"),
                                   ["-h", primary.socketFolder, "-U", primary.user, "-D", data, "-R", "-S", name, "-X", "stream",
                                    "-c", "fast", "--no-sync"],
                                   asServerUser: true)
        return try PostgresTestServer.launch(folder: folder, data: data, sockets: sockets, user: primary.user,
                                             options: "-c hot_standby=on -c cluster_name=\(name) -c autovacuum=off")
    }

    /// Promotes the standby to a primary (`pg_ctl promote`); returns once it takes writes.
    public func promoteStandby() throws {
        try PostgresTestServer.run(PostgresTestServer.tool("pg_ctl"), ["-D", standby.dataFolder, "-w", "-s", "promote"], asServerUser: true)
    }

    /// Stops a standby's replay (it keeps receiving WAL, and keeps serving what it replayed).
    public func pauseReplay(standby index: Int = 0) throws {
        try standbys[index].psql("SELECT pg_wal_replay_pause()", database: "postgres")
    }

    /// Lets a standby replay again.
    public func resumeReplay(standby index: Int = 0) throws {
        try standbys[index].psql("SELECT pg_wal_replay_resume()", database: "postgres")
    }

    /// Creates a database on the primary and returns its name once every standby has it too.
    public func createDatabase(_ prefix: String = "test") throws -> String {
        let name = try primary.createDatabase(prefix)
        try waitForReplay()
        return name
    }

    /// Waits until every standby whose replay is not paused has replayed everything the primary
    /// wrote so far (up to 30 s).
    public func waitForReplay() throws {
        let target = try primary.psql("SELECT pg_current_wal_lsn()", database: "postgres").trimmingCharacters(in: .whitespacesAndNewlines)
        for standby in standbys {
            try Self.waitUntil(standby, answers: "SELECT pg_is_wal_replay_paused() OR pg_last_wal_replay_lsn() >= '\(target)'",
                               else: "the standby did not replay the primary's WAL up to \(target)")
        }
    }

    /// Asks `server` every 5 ms until `sql` answers true; past 30 s throws `failure`.
    private static func waitUntil(_ server: PostgresTestServer.Running, answers sql: String, else failure: String) throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while try server.psql(sql, database: "postgres").trimmingCharacters(in: .whitespacesAndNewlines) != "t" {
            guard ContinuousClock.now < deadline else { throw PostgresTestServer.Unavailable(description: failure + " within 30 s") }
            usleep(5_000)
        }
    }
}
