import Foundation
import Testing

/// The PostgreSQL tests run when the server programs are installed, and say they did not run when
/// not. With `STRATA_REQUIRE_POSTGRES=1` (as `.ci/run` sets it) they always run, so a machine
/// without PostgreSQL fails them instead of skipping them.
public enum Postgres {
    /// Whether `STRATA_REQUIRE_POSTGRES=1` is set.
    public static let isRequired = ProcessInfo.processInfo.environment["STRATA_REQUIRE_POSTGRES"] == "1"

    /// The condition every PostgreSQL suite is enabled by.
    #if PostgreSQL
    public static let available: ConditionTrait = .enabled(
        if: isRequired || PostgresTestServer.isInstalled,
        "PostgreSQL is not installed here (no initdb through pg_config --bindir or in /usr/lib/postgresql/*/bin): these tests did not run")
    #else
    public static let available: ConditionTrait = .disabled("this build leaves PostgreSQL out (built without --traits PostgreSQL): these tests did not run")
    #endif

    /// The condition of suites that also need PgBouncer (Debian's `pgbouncer` package).
    #if PostgreSQL
    public static let poolerAvailable: ConditionTrait = .enabled(
        if: isRequired || PostgresTestPooler.isInstalled, "PgBouncer is not installed here (Debian's pgbouncer package): these tests did not run")
    #else
    public static let poolerAvailable: ConditionTrait = .disabled("this build leaves PostgreSQL out (built without --traits PostgreSQL): these tests did not run")
    #endif

    /// This process's throwaway server.
    public static func server() throws -> PostgresTestServer.Running {
        try PostgresTestServer.shared()
    }

    /// A URL of a new, empty database on the throwaway server.
    public static func newDatabaseURL(_ prefix: String = "test") throws -> String {
        try newDatabase(prefix).url
    }

    /// A new, empty database on the throwaway server: its name and its URL.
    public static func newDatabase(_ prefix: String = "test") throws -> (name: String, url: String) {
        let server = try server()
        let name = try server.createDatabase(prefix)
        return (name, server.url(database: name))
    }
}
