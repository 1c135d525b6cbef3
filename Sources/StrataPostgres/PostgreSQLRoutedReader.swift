// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import Foundation
import Strata

/// The reading connection of a store with replicas: each read transaction runs on a replica
/// that has replayed what this stack must see (see ``ReplicaRouter``), or on the primary when
/// none has within ``ReplicaRouter/maximumLag``.
///
/// Before a read transaction it asks a replica, in one statement, whether it is still a standby
/// and how far it has replayed, waiting (polling every 2 ms) until it has replayed the position
/// the router requires. Inside the transaction its first statement reads the replayed position
/// again, which the snapshot it took holds at most, and raises the requirement to it, so a later
/// read on another replica shows nothing older. A read on the primary raises it to the primary's
/// position likewise.
final class PostgreSQLRoutedReader: DatabaseConnection {
    private let backend: PostgreSQLBackend
    private let router: ReplicaRouter
    private var replicaConnections: [Int: PostgreSQLConnection] = [:]
    private var primary: PostgreSQLConnection?
    /// The connection the open (or last) read transaction runs on.
    private var current: PostgreSQLConnection?
    /// The replica the open (or last) read transaction runs on; nil for the primary.
    private(set) var servingReplica: Int?

    init(backend: PostgreSQLBackend, router: ReplicaRouter) {
        self.backend = backend
        self.router = router
    }

    var dialect: SQLDialect { .postgresql }

    /// Chooses where the next read transaction runs and begins it there.
    func beginReadTransaction() throws(StrataError) {
        let (connection, replica) = try route()
        current = connection
        servingReplica = replica
        try connection.beginReadTransaction()
        guard replica != nil else { return router.mustSee(try connection.insertPosition()) }
        if let shown = try connection.replayPosition() { router.mustSee(shown) }
    }

    /// A replica that has replayed what reads must see, or the primary.
    private func route() throws(StrataError) -> (PostgreSQLConnection, Int?) {
        for index in router.candidates() {
            guard let connection = replicaConnection(index) else { continue }
            if caughtUp(connection, replica: index) { return (connection, index) }
        }
        if let primary, !primary.isBroken { return (primary, nil) }
        let fresh = try backend.connect()
        primary = fresh
        return (fresh, nil)
    }

    /// A kept or new connection to a replica; nil (the replica skipped) when it cannot be reached.
    private func replicaConnection(_ index: Int) -> PostgreSQLConnection? {
        if let kept = replicaConnections[index], !kept.isBroken { return kept }
        replicaConnections[index] = nil
        do {
            let fresh = try backend.connect(to: router.replicas[index])
            replicaConnections[index] = fresh
            return fresh
        } catch {
            router.skip(index, because: "cannot be reached (\(error))")
            return nil
        }
    }

    /// Whether a replica has replayed what reads must see, waiting up to the router's limit;
    /// false (and the replica skipped or retired) when it has not, or is no longer a standby.
    private func caughtUp(_ connection: PostgreSQLConnection, replica index: Int) -> Bool {
        let sql = "SELECT pg_is_in_recovery(), CAST(pg_last_wal_replay_lsn() AS text)"
        let required = router.required
        let deadline = ContinuousClock.now + router.maximumLag
        while true {
            let result: PostgreSQLConnection.Result
            do {
                result = try connection.query(sql)
            } catch {
                replicaConnections[index] = nil
                router.skip(index, because: "failed (\(error))")
                return false
            }
            guard result.rows.first?.first == .integer(1) else {
                replicaConnections[index] = nil
                router.retire(index)
                return false
            }
            if let replayed = try? WALPosition.read(result, column: 1, sql: sql), replayed >= required { return true }
            guard ContinuousClock.now < deadline else {
                router.skip(index, because: "had not replayed what this stack must read after \(router.maximumLag)")
                return false
            }
            usleep(2_000)
        }
    }

    /// The connection statements go to: the open read transaction's, or (before any) one chosen now.
    private func target() throws(StrataError) -> PostgreSQLConnection {
        if let current { return current }
        let (connection, replica) = try route()
        current = connection
        servingReplica = replica
        return connection
    }

    func execute(_ sql: String) throws(StrataError) { try target().execute(sql) }
    func beginWriteTransaction() throws(StrataError) { try target().beginWriteTransaction() }
    var writesSideBySide: Bool { true }
    func markCommit(tables: [String]?) throws(StrataError) -> Int64 { try target().markCommit(tables: tables) }
    func snapshotMark() throws(StrataError) -> TransactionSnapshot { try target().snapshotMark() }
    var transactionAbortedBy: StrataError? { current?.transactionAbortedBy }
    func commit() throws(StrataError) { try target().commit() }
    func rollback() throws(StrataError) { try target().rollback() }
    func cachedStatement(_ sql: String) throws(StrataError) -> any DatabaseStatement { try target().cachedStatement(sql) }
    func batchedStatement(_ write: BatchedWrite) throws(StrataError) -> any DatabaseStatement { try target().batchedStatement(write) }
    func prepare(_ sql: String) throws(StrataError) -> any DatabaseStatement { try target().prepare(sql) }
    var changes: Int { current?.changes ?? 0 }
    func tableNames() throws(StrataError) -> Set<String> { try target().tableNames() }
    var isInTransaction: Bool { current?.isInTransaction ?? false }
    var isBroken: Bool { current?.isBroken ?? false }
}
#endif
