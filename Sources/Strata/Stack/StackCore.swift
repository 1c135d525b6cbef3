import Foundation
import Synchronization

/// One storage added to a stack: where its file is and which entities it holds.
final class StorageHandle: Sendable {
    let index: Int32
    let configuration: String
    /// The path or URI SQLite opens.
    let path: String
    /// A name for messages: the file path, or "in-memory store".
    let displayName: String
    let isInMemory: Bool
    let entities: Set<String>
    /// How long a write waits for a lock another connection or process holds.
    let busyTimeoutMilliseconds: Int32
    /// How the storage's connections are made.
    let backend: any StoreBackend
    /// Where its row ids come from when its server hands them out.
    let rowIDs: (any RowIDSource)?

    /// An in-memory store is a private temporary database in WAL mode (so the main context and
    /// read contexts can read while a transaction writes); its files go with the stack, and
    /// ``MemoryStoreFolder`` deletes whatever a process leaves at exit.
    deinit {
        guard isInMemory else { return }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// A storage; `backend` defaults to the SQLite file (or in-memory database) at `path`.
    init(index: Int32, configuration: String, path: String, displayName: String, isInMemory: Bool, entities: Set<String>,
         busyTimeoutMilliseconds: Int32 = 5_000, backend: (any StoreBackend)? = nil) {
        self.index = index
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        let backend = backend ?? SQLiteBackend(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, isInMemory: isInMemory)
        self.backend = backend
        self.rowIDs = backend.makeRowIDSource()
        self.configuration = configuration
        self.path = path
        self.displayName = displayName
        self.isInMemory = isInMemory
        self.entities = entities
    }
}

/// What every context of one stack shares: the schema, the layout, the storages, and the row-id
/// counters. All of it is immutable or behind a mutex, so contexts on any thread can use it.
final class StackCore: Sendable {
    let history: SchemaHistory
    /// Whether the objects of the main context and of transactions report to Observation.
    let observesObjects: Bool
    let layout: StoreLayout
    /// Read-only connections kept between read contexts.
    let readers = ReaderPool()
    /// This stack's commits, until the main context applies them.
    let commits = CommitLog()
    /// Whether the main context has read a storage (set on its first read, never cleared). Until
    /// then a transaction that writes side by side need not wait for it to catch up: it has no
    /// objects to bring up to date, and its first read starts from a snapshot of its own.
    let mainContextHasRead = Atomic(false)
    /// The changes of each commit, for `DataStack.changes`.
    let changes = ChangeBroadcaster()
    /// Whether the stack still takes work, and what ``DataStack/close()`` waits for.
    let lifecycle: StackLifecycle
    private let storageList = StorageList()
    private let nextRowIDs = Mutex<[TableKey: Int64]>([:])
    /// Each storage's commit count as this stack last knew it: a store whose count differs
    /// was written by another stack or process, whose row ids this stack must not hand out.
    private let knownCommitCounts = Mutex<[Int32: Int64]>([:])
    /// The code each storage's commits run before `COMMIT` (a synced storage's), by storage index.
    let commitHooks = Mutex<[Int32: any CommitHook]>([:])

    struct TableKey: Hashable {
        let storage: Int32
        let table: Int32
    }

    init(history: SchemaHistory, observesObjects: Bool = true) {
        self.history = history
        self.observesObjects = observesObjects
        self.lifecycle = StackLifecycle(model: history.modelName)
        self.layout = StoreLayout(version: history.currentVersion, types: history.entityTypes)
        for entity in history.currentVersion.entities where history.entityTypes[entity.name] == nil {
            misuse("Strata: the schema history has no class for entity '\(entity.name)'")
        }
        for name in history.migrationChain.versions where !history.versionNames.contains(name) {
            misuse("Strata: the migration chain of '\(history.modelName)' names version '\(name)', which its schema history does not have "
                   + "(versions: \(history.versionNames.joined(separator: ", ")))")
        }
    }

    /// The storages added so far.
    var storages: [StorageHandle] { storageList.snapshot.handles }

    /// Where a storage's row ids come from when its server hands them out; nil when the stack
    /// counts them itself.
    func rowIDSource(of storage: Int32) -> (any RowIDSource)? {
        storages.first { $0.index == storage }?.rowIDs
    }

    /// How many transactions of the stack may run at once: the least any storage allows (one
    /// unless every storage writes side by side), and one before any storage is added.
    var writerCapacity: Int {
        storageList.snapshot.writerCapacity
    }

    /// How long kept connections may sit unused before they are closed: the shortest of the
    /// storages' idle timeouts, or nil (kept) when a storage keeps its connections.
    var idleTimeout: Duration? {
        storageList.snapshot.idleTimeout
    }

    /// How long a transaction waits for a writer lane when all are in use, and the error when it
    /// waited that long: the longest busy timeout of the stack's server storages.
    var writerWait: (timeout: Duration, busy: StrataError) {
        let waits = storages.compactMap { storage in (storage.backend as? any ServerBackend).map { (storage.displayName, $0.busyTimeoutMilliseconds) } }
        let (name, milliseconds) = waits.max { $0.1 < $1.1 } ?? (storages.first?.displayName ?? "", 5_000)
        return (.milliseconds(milliseconds), .storeBusy(file: name, milliseconds: milliseconds))
    }

    /// The configurations of the current version, `Default` holding every entity.
    var configurationNames: [String] {
        ["Default"] + history.currentVersion.configurations.keys.sorted().filter { $0 != "Default" }
    }

    /// The SQL the storages holding `entity` speak (SQLite's before any is added). The SQL of a
    /// fetch is compiled once for every storage it reads, so a stack keeps an entity's storages
    /// on one kind of database.
    func dialect(of entity: String) -> SQLDialect {
        storages.first { $0.entities.contains(entity) }?.backend.dialect ?? .sqlite
    }

    /// The entities a configuration holds.
    func entities(ofConfiguration name: String) -> Set<String>? {
        history.currentVersion.entities(ofConfiguration: name)
    }

    /// Opens and registers a storage. Storages are only added on the writer queue, one at a time,
    /// so the index chosen here is still free when the storage is appended.
    func add(configuration: String, makeHandle: (Int32) -> StorageHandle,
             open: (StorageHandle) throws(StrataError) -> [Int32: Int64]) throws(StrataError) -> StorageHandle {
        let index = try storageList.update { (list: inout [StorageHandle]) throws(StrataError) -> Int32 in
            if list.contains(where: { $0.configuration == configuration }) { throw .storageAlreadyAdded(configuration: configuration) }
            return Int32(list.count)
        }
        let handle = makeHandle(index)
        let ids = try open(handle)
        storageList.update { $0.append(handle) }
        nextRowIDs.withLock { counters in
            for (table, next) in ids { counters[TableKey(storage: handle.index, table: table)] = next }
        }
        return handle
    }

    /// The storage that holds `entity`, given an optional configuration name.
    func storage(for entity: String, configuration: String?) throws(StrataError) -> StorageHandle {
        let storages = self.storages
        if let configuration {
            guard let held = entities(ofConfiguration: configuration) else {
                throw .unknownConfiguration(configuration, available: configurationNames)
            }
            guard held.contains(entity) else {
                // `Default` holds every entity; it is named only when no other configuration does.
                let holding = configurationNames.filter { $0 != "Default" && entities(ofConfiguration: $0)?.contains(entity) == true }
                throw .notInConfiguration(entity: entity, configuration: configuration, holding: holding.isEmpty ? ["Default"] : holding)
            }
            guard let storage = storages.first(where: { $0.configuration == configuration && $0.entities.contains(entity) }) else {
                throw .noStorage(entity: entity)
            }
            return storage
        }
        let candidates = storages.filter { $0.entities.contains(entity) }
        guard let first = candidates.first else { throw .noStorage(entity: entity) }
        guard candidates.count == 1 else { throw .ambiguousConfiguration(entity: entity, configurations: candidates.map(\.configuration)) }
        return first
    }

    /// The one storage a query or a list monitor reads: that of the configuration named, or the
    /// only one that holds `entity`; naming several is `ambiguousConfiguration`.
    func storage(for entity: String, configurations: [String]) throws(StrataError) -> StorageHandle {
        let storages = try self.storages(for: entity, configurations: configurations)
        guard storages.count == 1 else { throw .ambiguousConfiguration(entity: entity, configurations: storages.map(\.configuration)) }
        return storages[0]
    }

    /// The storages a fetch of `entity` reads: the named configurations', in order, or every
    /// storage that holds the entity (CoreStore's `From<T>()` reads them all).
    func storages(for entity: String, configurations: [String]) throws(StrataError) -> [StorageHandle] {
        guard configurations.isEmpty else {
            // Of several configurations, those that do not hold the entity (or have no storage
            // added) are skipped, as CoreStore's fetches skip them; none holding it is an error,
            // the first configuration's. An unknown name is always an error: it is a typo.
            var named: [StorageHandle] = []
            var firstError: StrataError?
            for configuration in configurations {
                do {
                    let storage = try storage(for: entity, configuration: configuration)
                    if !named.contains(where: { $0.index == storage.index }) { named.append(storage) }
                } catch {
                    let skippable: Bool
                    switch error {
                    case .notInConfiguration, .noStorage: skippable = configurations.count > 1
                    default: skippable = false
                    }
                    guard skippable else { throw error }
                    firstError = firstError ?? error
                }
            }
            if named.isEmpty, let firstError { throw firstError }
            return named
        }
        let candidates = storages.filter { $0.entities.contains(entity) }
        guard !candidates.isEmpty else { throw .noStorage(entity: entity) }
        return candidates
    }

    /// Reserves `count` fresh row ids for a table of a storage. Ids are never handed out twice,
    /// even to contexts on different threads; reserved ids a context does not use are skipped.
    func reserveRowIDs(_ table: TableKey, count: Int64) -> Range<Int64> {
        nextRowIDs.withLock { counters in
            let first = counters[table, default: 1]
            counters[table] = first + count
            return first..<(first + count)
        }
    }

    /// The commit count this stack last knew a storage at.
    func knownCommitCount(_ storage: Int32) -> Int64? {
        knownCommitCounts.withLock { $0[storage] }
    }

    /// Records a storage's commit count, as of this stack's own commit or a check of the store.
    func setKnownCommitCount(_ storage: Int32, _ count: Int64) {
        knownCommitCounts.withLock { $0[storage] = count }
    }

    /// Forgets a storage's commit count, so the next write transaction reads its ids again.
    func forgetKnownCommitCount(_ storage: Int32) {
        knownCommitCounts.withLock { $0[storage] = nil }
    }

    /// Moves a storage's row-id counters past ids another stack or process has used.
    func raiseRowIDs(storage: Int32, to floors: [Int32: Int64]) {
        nextRowIDs.withLock { counters in
            for (table, floor) in floors {
                let key = TableKey(storage: storage, table: table)
                counters[key] = max(counters[key, default: 1], floor)
            }
        }
    }

    /// The entity layout of an object's class.
    func entityLayout(of type: StrataObject.Type) -> EntityLayout? {
        layout.entity(type.entityName)
    }
}
