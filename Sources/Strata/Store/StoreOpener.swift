import Foundation

/// Opens a storage's writer connection and checks the file: a new file gets the schema, an
/// existing one must be a Strata store of this model at the current version.
enum StoreOpener {
    /// How a storage may be migrated while it is opened.
    struct MigrationPolicy {
        /// Whether the caller waits (`addStorageAndWait`): then only lightweight steps may run, and
        /// only when the storage allows it.
        let isSynchronous: Bool
        /// Told how the migration advances.
        let progress: (@Sendable (MigrationProgress) -> Void)?
    }

    /// The writer connection of a storage, ready to use: created, checked, or migrated.
    static func open(_ handle: StorageHandle, core: StackCore, options: LocalStorageOptions, durability: Durability = .normal,
                     policy: MigrationPolicy) throws(StrataError) -> any DatabaseConnection {
        if !handle.isInMemory {
            let folder = URL(fileURLWithPath: handle.path).deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw .fileSystem(path: folder.path, message: "cannot create the folder: \(error.localizedDescription)")
            }
        }
        do {
            return try openChecked(handle, core: core, options: options, durability: durability, policy: policy)
        } catch {
            let mismatch: Bool
            switch error {
            case .differentModel, .unknownStoreVersion, .notAStore, .noMigrationPath, .newerStoreVersion: mismatch = true
            default: mismatch = false
            }
            guard mismatch, options.contains(.recreateStoreOnModelMismatch), !handle.isInMemory else { throw error }
            log(.warning, "recreating an empty store because \(error)")
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: handle.path + suffix) }
            return try openChecked(handle, core: core, options: options, durability: durability, policy: policy)
        }
    }

    /// What an existing file holds.
    enum StoreState {
        /// No tables yet: a new store.
        case empty
        /// A store at the current version.
        case current
        /// A store at an older version of the model, and the versions to pass through.
        case older(version: String, path: [String])
    }

    /// Reads a store's metadata and recognises its version.
    static func state(of connection: any DatabaseConnection, file: String, history: SchemaHistory) throws(StrataError) -> StoreState {
        let tables = try connection.tableNames()
        if tables.isEmpty { return .empty }
        guard tables.contains(SchemaSQL.metadataTable) else {
            throw .notAStore(file: file, reason: "it is a SQLite database, but not one Strata created")
        }
        let metadata = try metadata(of: connection)
        let storeModel = metadata["model"] ?? ""
        guard storeModel == history.modelName else {
            throw .differentModel(file: file, storeModel: storeModel, expectedModel: history.modelName)
        }
        _ = try LayoutFormat.recorded(in: metadata, file: file)
        let current = history.currentVersion
        if metadata["lock"] == current.versionLock.metadataText { return .current }
        guard let lock = metadata["lock"].flatMap(VersionLock.init), let older = history.version(matching: lock, hint: metadata["version"]) else {
            if let recorded = metadata["version"], !history.versionNames.contains(recorded) {
                throw .newerStoreVersion(file: file, storeVersion: recorded, currentVersion: current.name)
            }
            throw .unknownStoreVersion(file: file, model: storeModel, storeVersion: metadata["version"] ?? "?")
        }
        guard let path = history.migrationPath(from: older.name) else {
            throw .noMigrationPath(file: file, storeVersion: older.name, currentVersion: current.name)
        }
        return .older(version: older.name, path: path)
    }

    private static func openChecked(_ handle: StorageHandle, core: StackCore, options: LocalStorageOptions, durability: Durability,
                                    policy: MigrationPolicy) throws(StrataError) -> any DatabaseConnection {
        // Look before touching: an existing file is first read through a connection that cannot
        // write (see StoreProbe), so one that is not a store this model can open now (another
        // database, another model, an unknown version, a migration this call may not run) is
        // refused with every byte of it and of its -wal and -shm as they were.
        if !handle.isInMemory, FileManager.default.fileExists(atPath: handle.path) {
            try StoreProbe.read(handle.path, file: handle.displayName) { probe throws(StrataError) in
                _ = try migrationPlans(StoreOpener.state(of: probe, file: handle.displayName, history: core.history), handle: handle, core: core,
                                       options: options, policy: policy)
            }
        }
        let connection = try connect(handle, readOnly: false)
        do {
            try connection.execute("PRAGMA journal_mode = WAL")
            try connection.execute(handle.isInMemory ? "PRAGMA synchronous = OFF" : durability == .full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
        } catch {
            throw cannotOpen(error, file: handle.displayName)
        }
        let state = try state(of: connection, file: handle.displayName, history: core.history)
        let plans = try migrationPlans(state, handle: handle, core: core, options: options, policy: policy)
        try upgradeLayoutFormat(connection, state: state, history: core.history, file: handle.displayName)
        switch state {
        case .empty:
            try createSchema(connection, handle: handle, core: core)
        case .current:
            break
        case .older(let version, let path):
            log(.notice, "migrating \(handle.displayName) from \(version) to \(core.history.currentVersion.name) through \(path.joined(separator: " → "))")
            let runner = MigrationRunner(connection: connection, history: core.history, file: handle.displayName, progress: policy.progress)
            try runner.run(plans)
        }
        return connection
    }

    /// The migration steps a store in `state` needs, or the error when this open may not run
    /// them: a synchronous open runs only lightweight steps, and only when the storage allows it.
    static func migrationPlans(_ state: StoreState, handle: StorageHandle, core: StackCore, options: LocalStorageOptions,
                               policy: MigrationPolicy, dialect: SQLDialect = .sqlite) throws(StrataError) -> [MigrationStepPlan] {
        guard case .older(let version, let path) = state else { return [] }
        let plans = try MigrationRunner.plans(path, history: core.history, configuration: handle.configuration, file: handle.displayName,
                                              dialect: dialect)
        if policy.isSynchronous, !options.contains(.allowSynchronousLightweightMigration) || plans.contains(where: \.isCustom) {
            throw .migrationRequired(file: handle.displayName, storeVersion: version, currentVersion: core.history.currentVersion.name)
        }
        return plans
    }

    /// Brings an existing store written in an older layout format to the current one, before any
    /// migration reads it.
    private static func upgradeLayoutFormat(_ connection: any DatabaseConnection, state: StoreState, history: SchemaHistory,
                                            file: String) throws(StrataError) {
        let versionName: String
        switch state {
        case .empty: return
        case .current: versionName = history.currentVersion.name
        case .older(let version, _): versionName = version
        }
        let metadata = try metadata(of: connection)
        let format = try LayoutFormat.recorded(in: metadata, file: file)
        guard format < LayoutFormat.current, let version = history.version(named: versionName) else { return }
        log(.notice, "upgrading \(file) from layout format \(format) to \(LayoutFormat.current)")
        try LayoutFormat.upgrade(connection, from: format, version: version)
    }

    /// A connection to the storage's file that has read its schema, or the error naming the file.
    private static func connect(_ handle: StorageHandle, readOnly: Bool) throws(StrataError) -> any DatabaseConnection {
        do {
            let connection = try SQLiteConnection(path: handle.path, readOnly: readOnly, busyTimeoutMilliseconds: handle.busyTimeoutMilliseconds)
            try connection.execute("PRAGMA schema_version")
            return connection
        } catch {
            throw cannotOpen(notAStore(error, file: handle.displayName), file: handle.displayName)
        }
    }

    /// SQLite's refusal to open or set up a file (a folder that cannot be written, a file another
    /// process holds locked), as an error naming the file.
    static func cannotOpen(_ error: StrataError, file: String) -> StrataError {
        guard case .sqlite(let code, let message, _) = error else { return error }
        let reason: String
        switch code & 0xFF {
        case 5, 6: reason = "another connection holds it locked (\(message))"
        case 8: reason = "it cannot be written (\(message)); check the permissions of the file and its folder"
        case 10: reason = "reading it failed (\(message)); it may be a folder, or its disk may be failing"
        case 14 where message.hasPrefix(SQLiteConnection.tooManyFiles):
            reason = message + "; close stacks the app no longer uses, or raise the process's limit on open files"
        case 14: reason = "it cannot be opened or created (\(message)); check that its folder exists and can be written"
        default: reason = "SQLite error \(code): \(message)"
        }
        return .cannotOpenStore(file: file, reason: reason)
    }

    static func notAStore(_ error: StrataError, file: String) -> StrataError {
        guard case .sqlite(let code, let message, _) = error else { return error }
        switch code & 0xFF {
        case 26: return .notAStore(file: file, reason: "the file is not a SQLite database (\(message))")
        case 11: return .notAStore(file: file, reason: "the file is damaged (\(message))")
        default: return error
        }
    }

    static func createSchema(_ connection: any DatabaseConnection, handle: StorageHandle, core: StackCore) throws(StrataError) {
        try connection.beginWriteTransaction()
        do {
            try createSchema(connection, layout: core.layout, model: core.history.modelName, configuration: handle.configuration,
                             entities: handle.entities)
            try connection.commit()
        } catch {
            try? connection.rollback()
            throw error
        }
    }

    /// Creates the tables of `layout` that hold `entities`, and the metadata naming the model,
    /// version and configuration; inside the caller's transaction.
    static func createSchema(_ connection: any DatabaseConnection, layout: StoreLayout, model: String, configuration: String,
                             entities: Set<String>) throws(StrataError) {
        let tables = Set(layout.tables.filter { table in table.entities.contains(where: entities.contains) }.map(\.name))
        for statement in SchemaSQL.create(layout, tables: tables, dialect: connection.dialect) { try connection.execute(statement) }
        let version = layout.version
        let insert = try connection.prepare("INSERT INTO " + SQLFragment.quote(SchemaSQL.metadataTable) + " (key, value) VALUES (?, ?)")
        for (key, value) in [("model", model), ("version", version.name), ("lock", version.versionLock.metadataText),
                             ("layout", String(LayoutFormat.current)), ("configuration", configuration)] {
            insert.reset()
            insert.bind([.text(key), .text(value)])
            try insert.step()
        }
    }

    /// The next row id of each table of the storage: past both the largest id and the recorded sequence.
    static func nextRowIDs(_ connection: any DatabaseConnection, handle: StorageHandle, core: StackCore) throws(StrataError) -> [Int32: Int64] {
        // One statement for every table's highest id and recorded sequence (one round trip to a
        // server, however many tables): a table's next id is past both.
        let tables = core.layout.tables.enumerated().filter { $0.element.entities.contains(where: handle.entities.contains) }
        guard !tables.isEmpty else { return [:] }
        let id = SQLFragment.quote(StoreLayout.idColumn)
        let sequences = SQLFragment.quote(SchemaSQL.sequenceTable)
        var parts: [String] = []
        var arguments: [SQLValue] = []
        for (index, table) in tables {
            parts.append("SELECT \(index), max(\(id)) FROM " + SQLFragment.quote(table.name))
            parts.append("SELECT \(index), max(value) - 1 FROM \(sequences) WHERE name = ?")
            arguments.append(.text(table.name))
        }
        var highest: [Int: Int64] = [:]
        for row in try rows(connection, parts.joined(separator: " UNION ALL "), arguments) {
            if let index = Int64(sqlValue: row[0]), let value = Int64(sqlValue: row[1]) { highest[Int(index)] = max(highest[Int(index)] ?? 0, value) }
        }
        var result: [Int32: Int64] = [:]
        for (index, _) in tables { result[Int32(index)] = (highest[index] ?? 0) + 1 }
        return result
    }

    /// The key-value pairs of a store's metadata table.
    static func metadata(of connection: any DatabaseConnection) throws(StrataError) -> [String: String] {
        var metadata: [String: String] = [:]
        for row in try rows(connection, "SELECT key, value FROM " + SQLFragment.quote(SchemaSQL.metadataTable)) {
            if let key = String(sqlValue: row[0]), let value = String(sqlValue: row[1]) { metadata[key] = value }
        }
        return metadata
    }

    /// Every row of a query, as values.
    static func rows(_ connection: any DatabaseConnection, _ sql: String, _ arguments: [SQLValue] = []) throws(StrataError) -> [[SQLValue]] {
        let statement = try connection.prepare(sql)
        statement.bind(arguments)
        var result: [[SQLValue]] = []
        while try statement.step() {
            // Asked after the step: a backend that runs the statement when stepped knows its columns then.
            result.append((0..<statement.columnCount).map { statement.row.value($0) })
        }
        return result
    }
}
