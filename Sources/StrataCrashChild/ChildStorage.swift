import Foundation
import Strata
#if PostgreSQL
import StrataPostgres
#endif

/// The storage a child's PATH argument names: a `postgres://` or `postgresql://` URL names a
/// PostgreSQL database (learning of other processes' commits by polling when
/// `STRATA_CHILD_POLL=1`), anything else a SQLite file.
func childStorage(_ argument: String) -> any StorageInterface {
    if argument.hasPrefix("postgres://") || argument.hasPrefix("postgresql://") {
        #if PostgreSQL
        let polled = ProcessInfo.processInfo.environment["STRATA_CHILD_POLL"] == "1"
        return PostgreSQLStore(url: argument, externalCommits: polled ? .polled : .notified)
        #else
        fatalError("strata-crash-child was built without the PostgreSQL trait")
        #endif
    }
    return SQLiteStore(fileURL: URL(fileURLWithPath: argument))
}
