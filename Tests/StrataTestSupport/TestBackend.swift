import Foundation
import Strata
#if PostgreSQL
import StrataPostgres
#endif
import Testing

/// The backend the runtime and end-to-end suites run against: SQLite, or PostgreSQL when
/// `STRATA_TEST_BACKEND=postgresql` (as `.ci/run` runs the suite a second time). The tests are the
/// same; one that cannot apply to PostgreSQL carries ``Trait/sqliteOnly(_:)`` saying why.
public enum TestBackend: String, Sendable {
    case sqlite
    case postgresql

    /// The backend of this test run.
    public static let current = TestBackend(rawValue: ProcessInfo.processInfo.environment["STRATA_TEST_BACKEND"] ?? "") ?? .sqlite
}

/// A fresh, empty store of the current backend: an in-memory SQLite store, or a new database on
/// the throwaway PostgreSQL server. `busyTimeout`: how long a PostgreSQL transaction waits for a
/// free writer (the store's default when nil).
public func freshStore(configuration: String? = nil, busyTimeout: Duration? = nil) throws -> any StorageInterface {
    // The tests' logger keeps what the store's transactions log, whichever test runs first.
    TestLog.install()
    switch TestBackend.current {
    case .sqlite: return InMemoryStore(configuration: configuration)
    case .postgresql: return try postgreSQLStore(url: try Postgres.newDatabaseURL("runtime"), configuration: configuration, busyTimeout: busyTimeout)
    }
}

/// A `PostgreSQLStore`, for tests that do not import StrataPostgres (which a build without
/// PostgreSQL leaves out); in such a build, an error saying so. With `STRATA_TEST_POOLER=pgbouncer`
/// the store reaches `url`'s database through the throwaway PgBouncer in transaction mode, and
/// listens for commits at `url` itself.
public func postgreSQLStore(url: String, configuration: String? = nil, busyTimeout: Duration? = nil) throws -> any StorageInterface {
    #if PostgreSQL
    let busyTimeout = busyTimeout ?? .seconds(5)
    if let pooler = try PostgresTestPooler.shared() {
        return PostgreSQLStore(url: pooler.url(sameDatabaseAs: url), configuration: configuration, busyTimeout: busyTimeout,
                               pooler: .transactionMode(directURL: url))
    }
    return PostgreSQLStore(url: url, configuration: configuration, busyTimeout: busyTimeout)
    #else
    throw PostgreSQLLeftOut()
    #endif
}

/// The error of a PostgreSQL store asked for in a build without PostgreSQL.
public struct PostgreSQLLeftOut: Error, CustomStringConvertible {
    public var description: String { "this build leaves PostgreSQL out (built without --traits PostgreSQL)" }
}

extension Trait where Self == ConditionTrait {
    /// A test of something only SQLite has (a file, a pragma, SQLite's own SQL): it runs when the
    /// suite runs on SQLite, and is reported as not run, with `reason`, on PostgreSQL.
    public static func sqliteOnly(_ reason: Comment) -> Self {
        .enabled(if: TestBackend.current == .sqlite, "SQLite only: \(reason)")
    }

    /// A suite that starts PostgreSQL servers of its own (a primary and a standby): it runs in
    /// the first pass only, since the passes on the shared server or through a pooler would run
    /// it again unchanged.
    public static var ownServersOnce: Self {
        .enabled(if: TestBackend.current == .sqlite, "it starts servers of its own, so it runs in the first pass only")
    }
}

/// One store that several stacks of a test open, each call a new storage value of it: a SQLite
/// file at `file`, or one new database on the throwaway PostgreSQL server.
public func sharedStore(file: URL) throws -> @Sendable () -> any StorageInterface {
    switch TestBackend.current {
    case .sqlite:
        return { SQLiteStore(fileURL: file) }
    case .postgresql:
        let url = try Postgres.newDatabaseURL("shared")
        _ = try postgreSQLStore(url: url)
        return { try! postgreSQLStore(url: url) }
    }
}
