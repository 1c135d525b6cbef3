import Dispatch
import Foundation

/// The entry point: a model's schema history, the storages that hold its objects, a serial writer
/// for transactions, and a read-only main context for the app's own fetches.
///
/// `DataStack` is `Sendable`: share it freely. Objects are not; pass ``ObjectID``s or snapshots.
public final class DataStack: Sendable, CustomDebugStringConvertible {
    /// The model this stack stores.
    public let schemaHistory: SchemaHistory
    let core: StackCore
    let writer: Writer
    let main: MainContext
    /// What the stack reports its transactions' and read contexts' costs to; nil: nothing.
    let instrumentation: (any StackInstrumentation)?
    /// Transactions started with a completion handler on a stack whose transactions run side
    /// by side: each starts after the previous one's completion has run (with one writer lane,
    /// the lane itself keeps that order).
    let gate = TransactionGate()

    /// A stack for a model; add storages before using it.
    ///
    /// Other stacks and processes may write the same files: every `externalCommitCheckInterval`
    /// (100 ms unless given; nil turns it off) the stack checks whether one did, and if so the
    /// main context and every monitor catch up. A commit of this stack catches up at once.
    ///
    /// Objects of the main context and of transactions are `Observable` unless `observesObjects`
    /// is false: then their accessors never report to Observation, and reading a property costs
    /// a flag test, as in a read context. An app that never tracks its objects (no SwiftUI view or
    /// `withObservationTracking` reads them) can turn it off; monitors stay observable either way.
    ///
    /// `instrumentation`, if given, is told what each transaction and read context cost (see
    /// ``StackInstrumentation``; `StrataTelemetry` reports them as metrics and spans).
    public init(_ schemaHistory: SchemaHistory, externalCommitCheckInterval: Duration? = .milliseconds(100),
                observesObjects: Bool = true, instrumentation: (any StackInstrumentation)? = nil) {
        self.schemaHistory = schemaHistory
        self.instrumentation = instrumentation
        self.core = StackCore(history: schemaHistory, observesObjects: observesObjects)
        self.writer = Writer(label: "strata.writer.\(schemaHistory.modelName)")
        self.main = MainContext(core: core, watchInterval: externalCommitCheckInterval)
    }

    deinit {
        main.watcher.stop()
    }

    /// Adds a storage and waits until it is open (created, or checked against the model).
    ///
    /// A store at an older version is migrated here only when its storage allows it with
    /// ``LocalStorageOptions/allowSynchronousLightweightMigration`` and every step is lightweight;
    /// otherwise this throws ``StrataError/migrationRequired(file:storeVersion:currentVersion:)``:
    /// add it with ``addStorage(_:progress:)``, which migrates without blocking.
    @discardableResult
    public func addStorageAndWait<S: StorageInterface>(_ storage: S) throws(StrataError) -> S {
        if writer.isOnQueue { throw .synchronousPerformInsideTransaction }
        try core.lifecycle.admit()
        defer { core.lifecycle.finish() }
        if let wrapper = storage as? any StorageWrapper {
            throw .syncFailed("\(wrapper) starts work of its own once open, so add it with 'try await stack.addStorage(storage)', not addStorageAndWait; nothing was added")
        }
        let policy = StoreOpener.MigrationPolicy(isSynchronous: true, progress: nil)
        let result: Result<Void, StrataError> = writer.first.queue.sync { Result { () throws(StrataError) in try self.open(storage, policy: policy) } }
        try result.get()
        return storage
    }

    /// Adds a `SQLiteStore()` (the app's file in ``SQLiteStore/defaultDirectory``) and waits until
    /// it is open, as CoreStore's `addStorageAndWait()` does.
    @discardableResult
    public func addStorageAndWait() throws(StrataError) -> SQLiteStore {
        try addStorageAndWait(SQLiteStore())
    }

    /// Adds a storage without blocking the caller, migrating a store at an older version through
    /// every step of the chain (in one transaction: on failure the file is left as it was).
    /// `progress`, if given, is called as the migration advances, on the stack's writer queue.
    @discardableResult
    public func addStorage<S: StorageInterface>(_ storage: S, progress: (@Sendable (MigrationProgress) -> Void)? = nil)
        async throws(StrataError) -> S {
        try core.lifecycle.admit()
        defer { core.lifecycle.finish() }
        let policy = StoreOpener.MigrationPolicy(isSynchronous: false, progress: progress)
        let wrapper = storage as? any StorageWrapper
        let opened: any StorageInterface = wrapper?.underlyingStorage ?? storage
        let result: Result<Void, StrataError> = await withCheckedContinuation { continuation in
            writer.first.queue.async {
                continuation.resume(returning: Result { () throws(StrataError) in try self.open(opened, policy: policy) })
            }
        }
        try result.get()
        try await wrapper?.didAdd(to: self)
        return storage
    }

    /// Opens a storage on the writer queue.
    private func open(_ storage: any StorageInterface, policy: StoreOpener.MigrationPolicy) throws(StrataError) {
        let configuration = storage.configuration ?? "Default"
        guard let entities = core.entities(ofConfiguration: configuration) else {
            throw .unknownConfiguration(configuration, available: core.configurationNames)
        }
        if let server = storage as? any ServerStorage {
            try open(server, configuration: configuration, entities: entities, policy: policy)
            return
        }
        let path: String
        let displayName: String
        let isInMemory: Bool
        let options: LocalStorageOptions
        let durability = (storage as? SQLiteStore)?.durability ?? .normal
        let busyTimeout = (storage as? SQLiteStore)?.busyTimeout ?? .seconds(5)
        let busyMilliseconds = Int32(clamping: busyTimeout.components.seconds * 1_000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000)
        if let file = storage as? SQLiteStore {
            path = file.fileURL.path
            displayName = file.fileURL.path
            isInMemory = false
            options = file.localStorageOptions
        } else if storage is InMemoryStore {
            path = try MemoryStoreFolder.newStorePath()
            displayName = "in-memory store"
            isInMemory = true
            options = []
        } else {
            // Nothing else can be opened; pretending (say, in memory) would lose the app's data at exit.
            throw .unsupportedStorage(String(describing: type(of: storage)))
        }
        _ = try core.add(configuration: configuration, makeHandle: { index in
            StorageHandle(index: index, configuration: configuration, path: path, displayName: displayName, isInMemory: isInMemory, entities: entities,
                          busyTimeoutMilliseconds: busyMilliseconds)
        }, open: { handle throws(StrataError) in
            do throws(StrataError) {
                return try adoptWriter(StoreOpener.open(handle, core: core, options: options, durability: durability, policy: policy), of: handle)
            } catch {
                // Whatever SQLite reports while a file is opened (a damaged page met while reading
                // the schema or the sequences) is said with the file's name.
                throw StoreOpener.cannotOpen(StoreOpener.notAStore(error, file: handle.displayName), file: handle.displayName)
            }
        })
        log(.notice, "added \(storage) for configuration '\(configuration)' of \(schemaHistory.modelName) \(schemaHistory.currentVersion.name)")
    }

    /// Opens a storage on a database server, on the writer queue.
    private func open(_ storage: any ServerStorage, configuration: String, entities: Set<String>,
                      policy: StoreOpener.MigrationPolicy) throws(StrataError) {
        let backend = try storage.makeBackend()
        _ = try core.add(configuration: configuration, makeHandle: { index in
            StorageHandle(index: index, configuration: configuration, path: "", displayName: storage.displayName, isInMemory: false,
                          entities: entities, backend: backend)
        }, open: { handle throws(StrataError) in
            try adoptWriter(ServerStoreOpener.open(handle, backend: backend, core: core, policy: policy), of: handle)
        })
        log(.notice, "added \(storage) for configuration '\(configuration)' of \(schemaHistory.modelName) \(schemaHistory.currentVersion.name)")
    }

    /// Makes an opened storage's connection the writer's, notes its commit count, and returns the
    /// next row id of each of its tables.
    ///
    /// The count is read before the ids: another process committing between the two reads then
    /// leaves the noted count behind the store's, so the first write transaction reads the ids
    /// again under the write lock. Read the other way round, the count would cover a commit whose
    /// ids were not seen, and this stack would hand them out again.
    private func adoptWriter(_ connection: any DatabaseConnection, of handle: StorageHandle) throws(StrataError) -> [Int32: Int64] {
        guard !connection.writesSideBySide else {
            // Its server hands out row ids and marks commits with transaction ids.
            writer.first.adopt(connection, for: handle.index)
            return [:]
        }
        let count = try ObjectContext.commitCount(connection)
        let ids = try StoreOpener.nextRowIDs(connection, handle: handle, core: core)
        core.setKnownCommitCount(handle.index, count)
        writer.first.adopt(connection, for: handle.index)
        return ids
    }

    /// The configuration whose storage holds an object (from any context), or nil for an object
    /// not stored in any storage of this stack.
    public func configuration(of object: StrataObject) -> String? {
        configuration(ofStorage: object.key.storage)
    }

    /// The configuration whose storage holds the object with an ID, or nil.
    public func configuration<T: StrataObject>(of objectID: ObjectID<T>) -> String? {
        configuration(ofStorage: objectID.key.storage)
    }

    private func configuration(ofStorage index: Int32) -> String? {
        core.storages.first { $0.index == index }?.configuration
    }

    /// `DataStack(PetStore V2: SQLiteStore(/path), InMemoryStore(Cache))`.
    public var debugDescription: String {
        let storages = core.storages.map { "\($0.configuration): \($0.displayName)" }.joined(separator: ", ")
        return "DataStack(\(schemaHistory.modelName) \(schemaHistory.currentVersion.name): \(storages.isEmpty ? "no storage" : storages))"
    }
}
