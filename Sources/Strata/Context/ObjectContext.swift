/// The objects one transaction, the main context or a read context works with: an identity map
/// (one object per row), and in a transaction the changes not yet written.
///
/// A context is confined to one isolation domain (the writer queue, the main actor, one read
/// task, or the thread of an unsafe transaction), so it is not `Sendable`.
@usableFromInline
final class ObjectContext {
    enum Kind: String {
        case transaction
        case main
        case reader
    }

    let core: StackCore
    let kind: Kind
    private let openConnection: (StorageHandle) throws(StrataError) -> any DatabaseConnection
    private let openReader: (StorageHandle) throws(StrataError) -> any DatabaseConnection
    private(set) var connections: [Int32: any DatabaseConnection] = [:]
    private var committedConnections: [Int32: any DatabaseConnection] = [:]

    // The state below is touched for every object created, read or written, so it opts out of
    // run-time exclusivity checks: that is sound because a context is confined to one isolation
    // domain (see the class comment) and no method holds an access to one of these properties
    // while calling code that could access the same property.

    /// Storages whose read transaction is open (main and read contexts; see `beginSnapshot`).
    @exclusivity(unchecked) var openSnapshots: Set<Int32> = []
    /// Told when a snapshot of a storage starts, before anything else reads it.
    var snapshotStarted: ((Int32, any DatabaseConnection) throws(StrataError) -> Void)?

    /// One object per row. The main context drops objects nothing else holds (see ``purge()``).
    @exclusivity(unchecked) var registered = Registry()
    var purgeThreshold = 4096
    /// Rows whose `coder: custom` values the app's decode function refused, since the read that
    /// met them last checked (see `ObjectContext+ReadFailures.swift`).
    var readFailures: ReadFailures?
    /// What this context's objects check before they change; replaced when the context ends.
    private(set) lazy var token = ContextToken(context: self)
    /// The homes of this context's objects, by entity and storage.
    private var homes = ObjectHomes()

    // Transaction state.
    /// Objects created and not yet inserted, in creation order.
    @exclusivity(unchecked) var unwritten: [StrataObject] = []
    /// Every object created since the last commit, in creation order (deleted ones included).
    @exclusivity(unchecked) var created: [StrataObject] = []
    /// Tables that got new rows since the last commit.
    @exclusivity(unchecked) var touchedTables: Set<StackCore.TableKey> = []
    /// The last `create` target, so a run of creates of one entity skips the lookups.
    @exclusivity(unchecked) var lastCreate: CreateTarget?
    /// Row ids reserved from the stack and not yet used, per table.
    /// The block of row ids creates take from, and its table: kept out of `reservedIDs` while in
    /// use, so a run of creates in one table needs no dictionary lookup.
    @exclusivity(unchecked) var currentRowIDs: (table: StackCore.TableKey, block: Range<Int64>)?
    @exclusivity(unchecked) var reservedIDs: [StackCore.TableKey: Range<Int64>] = [:]
    /// The size of the last block reserved, per table.
    @exclusivity(unchecked) var blockSizes: [StackCore.TableKey: Int64] = [:]
    /// The highest row id used, per table.
    @exclusivity(unchecked) var highestRowIDs: [StackCore.TableKey: Int64] = [:]
    /// Written objects with changed columns.
    @exclusivity(unchecked) var dirtyWritten: [ObjectKey: StrataObject] = [:]
    /// The updates of each entity and set of changed columns seen, so that writing many objects
    /// changed alike builds their statement once.
    var updateWrites: [UpdateShape: BatchedWrite] = [:]
    /// Written objects deleted and not yet removed.
    @exclusivity(unchecked) var pendingDeletes: [ObjectKey: StrataObject] = [:]
    /// Updates and deletions since the transaction began, for `hasChanges` and the commit notice.
    @exclusivity(unchecked) var log = ChangeLog()
    /// Storages with an open SQLite transaction.
    @exclusivity(unchecked) var openTransactions: Set<Int32> = []
    /// A problem found while creating objects, reported by the next commit.
    @exclusivity(unchecked) var deferredError: StrataError?
    /// To-many relationships whose positions or link rows must be written.
    var changedToMany: [ToManyKey: (StrataObject, RelationshipLayout)] = [:]
    /// Observed objects whose values were changed in place by applying commits, to be told to
    /// Observation once the whole commit is applied (see `ObjectContext+Observation`).
    var pendingObservation: [ObjectKey: PendingObservation] = [:]
    /// To-many relationships with `min` or `max` that changed, checked at commit.
    var countChecks: [ToManyKey: (StrataObject, RelationshipLayout)] = [:]
    /// Deleted objects whose `deny` relationships had destinations, checked at commit.
    var denials: [(StrataObject, RelationshipLayout)] = []
    /// Deleted objects whose many-to-many link rows must go.
    var deletedLinks: [(StrataObject, RelationshipLayout)] = []
    /// Whether reads take the write lock first (the writer queue's transactions), so nothing
    /// another connection commits can come between what a transaction reads and what it writes.
    var readsUnderWriteLock = false
    /// A table and the column of a unique attribute that an import looked objects up by.
    struct UniqueImportKey: Hashable {
        let table: String
        let column: String
    }

    /// The unique attributes this transaction's imports looked objects up by (see
    /// `BaseDataTransaction.noteUniqueImport`).
    var uniqueImportKeys: Set<UniqueImportKey> = []
    /// Whether the objects a transaction fetches are locked until it ends, its statements each
    /// seeing what was committed before them (a re-run after repeated serialization failures on
    /// a server whose writers run side by side).
    var locksRowsItReads = false
    /// Whether changed objects are checked against the store before they are written (unsafe
    /// transactions, which read without holding the write lock).
    var tracksConflicts = false
    /// How conflicts found by that check are settled.
    var mergePolicy = MergePolicy.error
    /// Each changed object's values as last read or written, in column order (unsafe transactions).
    @exclusivity(unchecked) var originals: [ObjectKey: [SQLValue]] = [:]
    /// While one of the app's reads runs in a transaction, the storages whose connection marked
    /// a point to go back to if it fails (see `ObjectContext+GuardedReads.swift`); nil otherwise.
    var guardedReads: Set<Int32>?
    /// Whether any relationship changed since the last commit (the main context then reloads
    /// its to-many relationships).
    var relationshipsChanged = false

    /// A context whose own connections come from `openConnection`; `openReader` gives a
    /// transaction read-only connections for fetches that skip its pending changes.
    init(core: StackCore, kind: Kind, openConnection: @escaping (StorageHandle) throws(StrataError) -> any DatabaseConnection,
         openReader: @escaping (StorageHandle) throws(StrataError) -> any DatabaseConnection) {
        self.core = core
        self.kind = kind
        self.openConnection = openConnection
        self.openReader = openReader
    }

    var isWritable: Bool { kind == .transaction }

    /// The connection of a storage, opened on first use; outside a transaction, inside the
    /// snapshot this context reads.
    ///
    /// A server may close a connection while it sits idle (a restart, a terminated backend), and
    /// the close may be seen only when the snapshot or write transaction starts on it. Nothing of
    /// this context's work was on that connection yet, so it starts once more on a new one.
    func connection(for storage: Int32) throws(StrataError) -> any DatabaseConnection {
        try startingAgainIfLost(storage) { () throws(StrataError) in try startedConnection(for: storage) }
    }

    /// Runs `start`, which starts a snapshot or write transaction on a storage's connection; when
    /// nothing had started on it yet and the server turns out to have closed it, drops it and
    /// runs `start` once more (on a new connection).
    func startingAgainIfLost(_ storage: Int32, _ start: () throws(StrataError) -> any DatabaseConnection)
        throws(StrataError) -> any DatabaseConnection {
        let wasStarted = openSnapshots.contains(storage) || openTransactions.contains(storage)
        do {
            return try start()
        } catch .connectionLost where !wasStarted {
            connections[storage] = nil
            openSnapshots.remove(storage)
            openTransactions.remove(storage)
            return try start()
        }
    }

    /// The connection of a storage, with its snapshot or write transaction open as this context
    /// needs.
    private func startedConnection(for storage: Int32) throws(StrataError) -> any DatabaseConnection {
        if let connection = connections[storage], connection.isBroken, !openTransactions.contains(storage) {
            // Lost between snapshots: the next one starts on a new connection (and, for the main
            // context, re-reads what changed meanwhile, as after any snapshot).
            connections[storage] = nil
            openSnapshots.remove(storage)
        }
        if let connection = connections[storage] {
            if openSnapshots.contains(storage), connection.transactionAbortedBy != nil {
                // A failed read aborted the snapshot's transaction, and the server refuses the rest
                // of it: the next read starts a new snapshot, as the next stretch of work would.
                endSnapshots(of: [storage])
            }
            if kind != .transaction, !openSnapshots.contains(storage) { try beginSnapshot(storage, on: connection) }
            if readsUnderWriteLock, !openTransactions.contains(storage) { try beginImmediate(storage, on: connection) }
            return connection
        }
        guard let handle = core.storages.first(where: { $0.index == storage }) else { throw .noStorage(entity: "storage #\(storage)") }
        let connection = try openConnection(handle)
        connections[storage] = connection
        try beginSnapshot(storage, on: connection)
        if readsUnderWriteLock { try beginImmediate(storage, on: connection) }
        return connection
    }

    /// Ends the snapshots and hands over this context's connections (for a read context going
    /// back to the pool).
    func releaseConnections() -> [Int32: any DatabaseConnection] {
        endSnapshots()
        defer { connections.removeAll() }
        return connections
    }

    /// Ends the snapshots and closes every connection of this context (its stack is closing).
    func closeConnections() {
        endSnapshots()
        connections.removeAll()
        committedConnections.removeAll()
    }

    /// A read-only connection that sees only committed data.
    func committedConnection(for storage: StorageHandle) throws(StrataError) -> any DatabaseConnection {
        if let connection = committedConnections[storage.index], !connection.isBroken { return connection }
        let connection = try openReader(storage)
        committedConnections[storage.index] = connection
        return connection
    }

    /// The registered object for a key.
    func registeredObject(_ key: ObjectKey) -> StrataObject? { registered[key] }

    /// Registers a new object under its key (its row id is never reused, so it replaces none;
    /// the map takes it in with the next batch, when it is next read).
    func register(_ object: StrataObject) {
        registered.insertLater(object)
        if kind == .main, registered.countUpperBound > purgeThreshold { purge() }
    }

    /// Drops objects only the map still holds, so a long-lived main context does not grow without
    /// bound; objects anyone still holds keep their identity.
    func purge() {
        registered.filter { !isKnownUniquelyReferenced(&$0) }
        purgeThreshold = max(4096, registered.count * 2)
    }

    /// Adopts an object into this context.
    func adopt(_ object: StrataObject, rowID: Int64, home: ObjectHome) {
        object.home = home
        object.rowID = rowID
    }

    /// The home of `layout`'s objects in a storage, for the context's current token.
    func home(_ layout: EntityLayout, storage: Int32) -> ObjectHome {
        homes.home(layout, storage: storage, token: token)
    }

    /// Marks a column of a written object as changed; called before the changed value is set.
    func markUpdated(_ object: StrataObject, column: Int) {
        let key = object.key
        // The object is listed once, when its first column changes (an update that sets four
        // columns looked it up in three tables for each).
        if object.mayHaveJustBecomeDirty {
            if tracksConflicts, originals[key] == nil { originals[key] = Self.currentValues(of: object) }
            dirtyWritten[key] = object
            log.updated[key] = object
        }
        log.changedColumns[key, default: ColumnSet()].insert(column)
    }

    /// Makes room for `count` more updated objects in the tables `markUpdated` fills, so that an
    /// import updating that many existing objects does not grow them step by step.
    func reserveUpdates(_ count: Int) {
        guard count > 0 else { return }
        dirtyWritten.reserveCapacity(dirtyWritten.count + count)
        log.updated.reserveCapacity(log.updated.count + count)
        log.changedColumns.reserveCapacity(log.changedColumns.count + count)
    }

    /// Whether the transaction has anything to commit.
    var hasChanges: Bool {
        created.contains { !$0.deleted } || !dirtyWritten.isEmpty || !pendingDeletes.isEmpty || !log.isEmpty
    }

    /// Forgets every change and every object; the objects it handed out can no longer change.
    @discardableResult
    func reset() -> ContextLeftovers {
        token.state = .finished
        token = ContextToken(context: self)
        let leftovers = ContextLeftovers(registry: registered, log: log)
        registered.removeAll()
        unwritten.removeAll()
        created.removeAll()
        touchedTables.removeAll()
        lastCreate = nil
        dirtyWritten.removeAll()
        pendingDeletes.removeAll()
        log = ChangeLog()
        deferredError = nil
        changedToMany.removeAll()
        countChecks.removeAll()
        denials.removeAll()
        deletedLinks.removeAll()
        originals.removeAll()
        relationshipsChanged = false
        return leftovers
    }
}

/// The objects a reset context let go of, kept alive as long as this is: a transaction frees its
/// objects after its caller has been answered, not before (100,000 objects take about 3% of a
/// large insert's instructions to free).
///
/// `@unchecked Sendable` because it crosses into a closure the writer queue runs later: the
/// objects are never read or changed again, only released, and only on the queue that owned
/// them, serially after the transaction.
// Sound to mark `@unchecked Sendable`: the one closure it crosses into runs on the writer queue that
// owned these objects, after the transaction ended, and does nothing with them but release them.
struct ContextLeftovers: @unchecked Sendable {
    private let registry: Registry
    private let log: ChangeLog

    fileprivate init(registry: Registry, log: ChangeLog) {
        self.registry = registry
        self.log = log
    }
}

/// The entity, storage and table of the last `create`.
struct CreateTarget {
    let type: ObjectIdentifier
    let configuration: String?
    let layout: EntityLayout
    let table: StackCore.TableKey?
}

/// What a transaction updated and deleted, by row (creations are kept in order in `created`).
struct ChangeLog {
    var updated: [ObjectKey: StrataObject] = [:]
    var deleted: [ObjectKey: String] = [:]
    /// The columns each updated object changed since the transaction began.
    var changedColumns: [ObjectKey: ColumnSet] = [:]
    /// The to-many relationships (by name) each object's changes added to or removed from.
    var toMany: [ObjectKey: Set<String>] = [:]
    /// Objects the sync engine made hold another node's changes (see ``HookedChange/appliedBySync``).
    var appliedBySync: Set<ObjectIdentifier> = []

    var isEmpty: Bool { updated.isEmpty && deleted.isEmpty }
}

/// What a commit changed, as `Sendable` values the main context applies to its live objects.
struct CommitSummary: Sendable {
    /// Inserted rows.
    var inserted: [ObjectKey] = []
    /// Updated rows: entity name, every column value in the entity's column order, and the
    /// ordinals of the columns that changed.
    var updated: [ObjectKey: (entity: String, values: [SQLValue], columns: ColumnSet)] = [:]
    /// Deleted rows with their entity names.
    var deleted: [ObjectKey: String] = [:]
    /// Objects whose to-many relationships changed (objects inserted or deleted by the commit
    /// excepted): entity name and relationship names.
    var toMany: [ObjectKey: (entity: String, names: Set<String>)] = [:]
    /// Whether relationships changed, so loaded to-many relationships must be reloaded.
    var relationshipsChanged = false

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && toMany.isEmpty && !relationshipsChanged }
}

/// An entity and the columns an UPDATE writes: the key of `ObjectContext.updateSQL`.
struct UpdateShape: Hashable {
    let layout: ObjectIdentifier
    let columns: ColumnSet
}
