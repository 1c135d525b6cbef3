// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import Strata

/// Replica positions: where the primary's log ends after a commit, and how far a standby has replayed
/// it, so reads go to a standby only once it holds this stack's writes.
extension PostgreSQLConnection {
    /// Where the server's log ends now (`pg_current_wal_insert_lsn()`): past every commit it has made.
    func insertPosition() throws(StrataError) -> WALPosition {
        let sql = "SELECT CAST(pg_current_wal_insert_lsn() AS text)"
        guard let position = try WALPosition.read(query(sql), sql: sql) else {
            throw .server(code: "?", message: "the server did not return its log position", sql: sql)
        }
        return position
    }

    /// How far a standby has replayed its primary's log (`pg_last_wal_replay_lsn()`); nil on a
    /// server that is not one.
    func replayPosition() throws(StrataError) -> WALPosition? {
        let sql = "SELECT CAST(pg_last_wal_replay_lsn() AS text)"
        return try WALPosition.read(query(sql), sql: sql)
    }
}
#endif
