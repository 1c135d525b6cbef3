import Foundation
import Strata
#if canImport(StrataPostgres)
import StrataPostgres
#endif

/// The storage a child's PATH argument names: a `postgres://` or `postgresql://` URL names a
/// PostgreSQL database (learning of other processes' commits by polling when
/// `STRATA_CHILD_POLL=1`), anything else a SQLite file.
func childStorage(_ argument: String) -> any StorageInterface {
    if argument.hasPrefix("postgres://") || argument.hasPrefix("postgresql://") {
        #if canImport(StrataPostgres)
        let polled = ProcessInfo.processInfo.environment["STRATA_CHILD_POLL"] == "1"
        return PostgreSQLStore(url: argument, externalCommits: polled ? .polled : .notified)
        #else
        fatalError("strata-crash-child was built without PostgreSQL (STRATA_WITHOUT_POSTGRES=1)")
        #endif
    }
    return SQLiteStore(fileURL: URL(fileURLWithPath: argument))
}
