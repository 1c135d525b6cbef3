/// Reads in snapshots: the main context and read contexts read each storage inside one read
/// transaction, so everything they read of it reflects one committed state.
extension ObjectContext {
    /// Starts a read transaction on a storage's connection unless one is open, and tells
    /// `snapshotStarted`, whose first read pins the snapshot.
    func beginSnapshot(_ storage: Int32, on connection: any DatabaseConnection) throws(StrataError) {
        guard kind != .transaction, !openSnapshots.contains(storage) else { return }
        try connection.beginReadTransaction()
        openSnapshots.insert(storage)
        do {
            try snapshotStarted?(storage, connection)
        } catch {
            endSnapshots()
            throw error
        }
    }

    /// Ends every open read transaction, so the next read sees the newest committed state.
    func endSnapshots() {
        endSnapshots(of: openSnapshots)
    }

    /// Ends the open read transactions of some storages.
    func endSnapshots(of storages: Set<Int32>) {
        for storage in openSnapshots.intersection(storages) {
            try? connections[storage]?.commit()
            openSnapshots.remove(storage)
        }
    }

    /// The commit count a storage's snapshot holds (see `CommitLog`).
    static func commitCount(_ connection: any DatabaseConnection) throws(StrataError) -> Int64 {
        let statement = try connection.cachedStatement("SELECT CAST(value AS \(connection.dialect.integer)) FROM "
                                                       + SQLFragment.quote(SchemaSQL.metadataTable) + " WHERE key = 'commits'")
        defer { statement.reset() }
        return try statement.step() ? statement.row.int64(0) : 0
    }
}
