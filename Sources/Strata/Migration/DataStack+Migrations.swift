import Foundation

extension DataStack {
    /// The steps adding `storage` would run to bring its file to the current version, without
    /// changing anything: empty when the file does not exist, is empty, or is already current.
    ///
    /// Throws what adding it would throw for a file it cannot open: another model, an unknown
    /// version, a version the chain does not lead from, or a step that cannot be inferred.
    public func requiredMigrations(for storage: SQLiteStore) throws(StrataError) -> [MigrationType] {
        let path = storage.fileURL.path
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: path, readOnly: true)
            try connection.execute("PRAGMA schema_version")
        } catch {
            throw StoreOpener.notAStore(error, file: path)
        }
        guard case .older(_, let versions) = try StoreOpener.state(of: connection, file: path, history: schemaHistory) else { return [] }
        let plans = try MigrationRunner.plans(versions, history: schemaHistory, configuration: storage.configuration ?? "Default", file: path)
        return plans.map { plan in
            plan.isCustom ? .heavyweight(sourceVersion: plan.sourceVersion, destinationVersion: plan.destinationVersion)
                : .lightweight(sourceVersion: plan.sourceVersion, destinationVersion: plan.destinationVersion)
        }
    }
}
