import Strata

/// The tables a synced storage keeps beside the model's, created when sync starts on it. Their
/// names begin with `strata_sync_`, which no entity's table can (entity names begin with a capital).
///
/// - `strata_sync_objects`: one row per synced object, live or deleted: its global ID, where its
///   row is, its converged state (``SyncedObject`` in its stored binary form), and per role what is left to do (a
///   client's change not yet pushed; a server's sequence number of the object's last change).
/// - `strata_sync_waiting`: objects whose state names an object not yet here, by the ID they wait for.
/// - `strata_sync_meta`: the node's settings and checkpoints, by key.
/// - `strata_sync_outbox`: a client's batches, each written before it is sent, so that a push
///   repeated after a crash sends the same changes under the same number.
/// - `strata_sync_clients`: on a server, the last batch applied for each client, and its account.
enum SyncTables {
    static let objects = "strata_sync_objects"
    static let waiting = "strata_sync_waiting"
    static let meta = "strata_sync_meta"
    static let outbox = "strata_sync_outbox"
    static let clients = "strata_sync_clients"

    /// The statements that create the tables (each leaves an existing table alone), with the
    /// indexes `role` reads by: a server's log order, a client's changes not yet pushed. Each
    /// index is one more write per recorded change, so a role keeps only its own.
    static func create(_ dialect: SQLDialect, role: SyncEngine.Role) -> [String] {
        let integer = dialect.integer
        let bytes = dialect.columnType(.data)
        return [
            "CREATE TABLE IF NOT EXISTS \(objects) (gid TEXT PRIMARY KEY, entity TEXT NOT NULL, table_name TEXT NOT NULL, "
                + "row_id \(integer), owner TEXT, sequence \(integer) NOT NULL DEFAULT 0, state \(bytes) NOT NULL, pending \(bytes), "
                + "pending_order \(integer), unresolved \(integer) NOT NULL DEFAULT 0)",
            "CREATE INDEX IF NOT EXISTS \(objects)_row ON \(objects) (table_name, row_id)",
            role == .server
                ? "CREATE INDEX IF NOT EXISTS \(objects)_sequence ON \(objects) (sequence)"
                : "CREATE INDEX IF NOT EXISTS \(objects)_pending ON \(objects) (pending_order) WHERE pending_order IS NOT NULL",
            "CREATE TABLE IF NOT EXISTS \(waiting) (awaited TEXT NOT NULL, gid TEXT NOT NULL, PRIMARY KEY (awaited, gid))",
            "CREATE TABLE IF NOT EXISTS \(meta) (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS \(outbox) (batch \(integer) NOT NULL, position \(integer) NOT NULL, entity TEXT NOT NULL, "
                + "gid TEXT NOT NULL, change \(bytes) NOT NULL, PRIMARY KEY (batch, position))",
            "CREATE TABLE IF NOT EXISTS \(clients) (client TEXT PRIMARY KEY, account TEXT NOT NULL, batch \(integer) NOT NULL)",
        ]
    }

    /// The statements that empty every table (the content was removed, or the account changed).
    static var clear: [String] {
        [objects, waiting, meta, outbox, clients].map { "DELETE FROM " + $0 }
    }
}

/// Reading and writing `strata_sync_meta`.
enum SyncMeta {
    /// The value stored under `key`, if any.
    static func value(_ key: String, on connection: any DatabaseConnection) throws(StrataError) -> String? {
        let statement = try connection.cachedStatement("SELECT value FROM \(SyncTables.meta) WHERE key = ?")
        defer { statement.reset() }
        statement.bind(key, at: 1)
        guard try statement.step() else { return nil }
        return statement.row.string(0)
    }

    /// Removes the value stored under `key`.
    static func remove(_ key: String, on connection: any DatabaseConnection) throws(StrataError) {
        let statement = try connection.cachedStatement("DELETE FROM \(SyncTables.meta) WHERE key = ?")
        defer { statement.reset() }
        statement.bind(key, at: 1)
        try statement.step()
    }

    /// Stores `value` under `key`.
    static func set(_ key: String, to value: String, on connection: any DatabaseConnection) throws(StrataError) {
        let statement = try connection.cachedStatement(
            "INSERT INTO \(SyncTables.meta) (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
        defer { statement.reset() }
        statement.bind(key, at: 1)
        statement.bind(value, at: 2)
        try statement.step()
    }

    /// Adds `amount` to the integer under `key` (0 when unset) and returns the new value; on a
    /// server the row stays locked until the transaction ends, so numbers are taken in commit order.
    static func increment(_ key: String, by amount: Int64, on connection: any DatabaseConnection) throws(StrataError) -> Int64 {
        let integer = connection.dialect.integer
        let statement = try connection.cachedStatement(
            "INSERT INTO \(SyncTables.meta) (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(\(SyncTables.meta).value AS \(integer)) + ? AS TEXT) RETURNING value")
        defer { statement.reset() }
        statement.bind(key, at: 1)
        statement.bind(String(amount), at: 2)
        statement.bind(amount, at: 3)
        guard try statement.step(), let value = Int64(statement.row.string(0)) else { return amount }
        return value
    }
}
