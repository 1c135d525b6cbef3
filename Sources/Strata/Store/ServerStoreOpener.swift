/// Opens a storage kept in a database server's database (PostgreSQL): an empty database gets the
/// schema, an existing one must hold this model at the current version or an older one, which is
/// migrated. The same checks and the same migration plans as a SQLite file, in the server's dialect.
///
/// App servers that start at the same moment migrate once: the whole check runs under the
/// backend's migration lock, so the others wait and then find the store current.
enum ServerStoreOpener {
    /// The writer connection of the storage, ready to use.
    static func open(_ handle: StorageHandle, backend: any ServerBackend, core: StackCore,
                     policy: StoreOpener.MigrationPolicy) throws(StrataError) -> any DatabaseConnection {
        let connection = try backend.writer()
        try backend.withMigrationLock(on: connection) { () throws(StrataError) in
            let state = try StoreOpener.state(of: connection, file: handle.displayName, history: core.history)
            let plans = try StoreOpener.migrationPlans(state, handle: handle, core: core, options: [], policy: policy, dialect: connection.dialect)
            // A database of another model was refused above, untouched.
            try backend.prepare(connection)
            switch state {
            case .empty:
                try StoreOpener.createSchema(connection, handle: handle, core: core)
            case .current:
                break
            case .older(let version, let path):
                log(.notice, "migrating \(handle.displayName) from \(version) to \(core.history.currentVersion.name) through \(path.joined(separator: " → "))")
                try MigrationRunner(connection: connection, history: core.history, file: handle.displayName, progress: policy.progress).run(plans)
            }
            let tables = core.layout.tables.filter { $0.entities.contains(where: handle.entities.contains) }.map(\.name)
            try backend.finishOpening(connection, tables: tables)
        }
        return connection
    }
}

/// The backend of a storage on a database server, which several processes on several machines
/// open at once.
package protocol ServerBackend: StoreBackend {
    /// Runs `body` while holding the database's migration lock, which one connection of all
    /// processes holds at a time.
    func withMigrationLock(on connection: any DatabaseConnection, _ body: () throws(StrataError) -> Void) throws(StrataError)

    /// Readies a database that holds (or is about to hold) this store, under the migration lock:
    /// creates the SQL functions Strata's queries call that the server lacks.
    func prepare(_ connection: any DatabaseConnection) throws(StrataError)

    /// How long a transaction waits for a row another transaction is changing, and for one of
    /// its stack's writer connections when all are in use, in milliseconds.
    var busyTimeoutMilliseconds: Int { get }

    /// Readies a database that holds this store at the current version, still under the
    /// migration lock: what its row-id source needs for `tables` (the store's tables).
    func finishOpening(_ connection: any DatabaseConnection, tables: [String]) throws(StrataError)
}

/// A storage whose backend another Strata module provides (`PostgreSQLStore` in `StrataPostgres`).
package protocol ServerStorage: StorageInterface {
    /// The storage as messages name it: the database's URL without its password.
    var displayName: String { get }

    /// The backend that connects to it.
    func makeBackend() throws(StrataError) -> any ServerBackend
}
