import Foundation

/// A throwaway primary with one hot standby streaming from it, for the tests of replicas and
/// failover: two clusters in this run's folder, the standby made by `pg_basebackup -R` from the
/// primary through a replication slot, each on a Unix socket of its own, both stopped when the
/// test process exits. Autovacuum is off on the primary, so the tests' transactions are the only
/// ones.
public struct PostgresTestCluster: Sendable {
    /// The server that takes writes (until a standby is promoted).
    public let primary: PostgresTestServer.Running
    /// The hot standby, replaying the primary's WAL and taking reads.
    public let standby: PostgresTestServer.Running

    /// Starts a primary and its standby; with `synchronous`, the primary's commits wait until the
    /// standby has the commit on disk (`synchronous_standby_names`, `synchronous_commit = on`).
    public static func start(synchronous: Bool = false) throws -> PostgresTestCluster {
        let name = "standby"
        let primary = try PostgresTestServer.start(options: "-c autovacuum=off -c wal_level=replica -c max_wal_senders=10 -c max_replication_slots=10")
        try primary.psql("SELECT pg_create_physical_replication_slot('\(name)')", database: "postgres")
        let (folder, data, sockets) = try PostgresTestServer.serverFolders()
        try PostgresTestServer.run(PostgresTestServer.tool("pg_basebackup"),
                                   ["-h", primary.socketFolder, "-U", primary.user, "-D", data, "-R", "-S", name, "-X", "stream",
                                    "-c", "fast", "--no-sync"],
                                   asServerUser: true)
        // The walreceiver names itself after `cluster_name`, which `synchronous_standby_names` lists.
        let standby = try PostgresTestServer.launch(folder: folder, data: data, sockets: sockets, user: primary.user,
                                                    options: "-c hot_standby=on -c cluster_name=\(name) -c autovacuum=off")
        if synchronous {
            // Only now: a primary waiting for a standby that is not there yet would wait for good.
            try primary.psql("ALTER SYSTEM SET synchronous_standby_names = '\(name)'", database: "postgres")
            try primary.psql("ALTER SYSTEM SET synchronous_commit = 'on'", database: "postgres")
            try primary.psql("SELECT pg_reload_conf()", database: "postgres")
            try waitUntil(primary, answers: "SELECT count(*) = 1 FROM pg_stat_replication WHERE sync_state = 'sync'",
                          else: "the standby did not become synchronous")
        }
        return PostgresTestCluster(primary: primary, standby: standby)
    }

    /// Promotes the standby to a primary (`pg_ctl promote`); returns once it takes writes.
    public func promoteStandby() throws {
        try PostgresTestServer.run(PostgresTestServer.tool("pg_ctl"), ["-D", standby.dataFolder, "-w", "-s", "promote"], asServerUser: true)
    }

    /// Stops the standby's replay (it keeps receiving WAL, and keeps serving what it replayed).
    public func pauseReplay() throws {
        try standby.psql("SELECT pg_wal_replay_pause()", database: "postgres")
    }

    /// Lets the standby replay again.
    public func resumeReplay() throws {
        try standby.psql("SELECT pg_wal_replay_resume()", database: "postgres")
    }

    /// Creates a database on the primary and returns its name once the standby has it too.
    public func createDatabase(_ prefix: String = "test") throws -> String {
        let name = try primary.createDatabase(prefix)
        try waitForReplay()
        return name
    }

    /// Waits until the standby has replayed everything the primary wrote so far (up to 30 s).
    public func waitForReplay() throws {
        let target = try primary.psql("SELECT pg_current_wal_lsn()", database: "postgres").trimmingCharacters(in: .whitespacesAndNewlines)
        try Self.waitUntil(standby, answers: "SELECT pg_last_wal_replay_lsn() >= '\(target)'",
                           else: "the standby did not replay the primary's WAL up to \(target)")
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
