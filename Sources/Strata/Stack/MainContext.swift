/// The stack's read-only main context: the objects `DataStack`'s own fetches return, kept up to
/// date by every commit before the commit's completion runs.
///
/// Everything it shows reflects one committed state of each store. It reads each storage inside a
/// read transaction (a snapshot), and brings its live objects to exactly that snapshot's state:
/// this stack's commits from their summaries in the `CommitLog`, and commits the log cannot
/// account for (another stack's or process's) by re-reading its objects. The snapshots end when
/// the stack commits, so the next read sees the newest state.
@MainActor
final class MainContext {
    let core: StackCore
    lazy var context: ObjectContext = {
        // Once the stack is closed, nothing reads: fetches, monitors and faults report it.
        let lifecycle = core.lifecycle
        let open = { (handle: StorageHandle) throws(StrataError) -> any DatabaseConnection in
            if lifecycle.isClosed { throw lifecycle.refusal }
            return try handle.backend.reader()
        }
        let context = ObjectContext(core: core, kind: .main, openConnection: open, openReader: open)
        context.snapshotStarted = { [unowned self] storage, connection throws(StrataError) in
            try self.snapshotStarted(storage, connection)
        }
        return context
    }()
    /// The commit count of each storage that the live objects reflect; none for a storage not read yet.
    private var applied: [Int32: Int64] = [:]
    /// For a storage whose writers run side by side: the snapshot the live objects reflect.
    private var appliedSnapshots: [Int32: TransactionSnapshot] = [:]
    /// Storages whose objects missed commits the log no longer holds.
    private var stale: Set<Int32> = []
    /// Server storages whose snapshot ends once the main actor's current work is done.
    private var endingSnapshots: Set<Int32> = []
    /// Other stacks' commits the watcher heard of, by storage and transaction id, with the tables
    /// each changed (nil: unknown), until a snapshot holds them.
    private var heardCommits: [Int32: [Int64: Set<String>?]] = [:]
    /// How many objects the storages' re-reads have read again (what a test of re-reading only
    /// the tables other stacks changed counts).
    private(set) var objectsReread = 0
    /// The monitors of this stack.
    let observers: ObserverRegistry
    /// What was applied since monitors last looked (recorded only while monitors exist).
    private var observed = ObservedChanges()

    /// Notices other writers' commits to the stack's files.
    let watcher: ExternalCommitWatcher

    nonisolated init(core: StackCore, watchInterval: Duration?) {
        self.core = core
        self.watcher = ExternalCommitWatcher(interval: watchInterval)
        self.observers = ObserverRegistry()
    }

    /// ``catchUp()`` after the watcher heard of other stacks' commits: which tables each changed
    /// lets a snapshot that holds only such commits read those tables' objects alone again.
    /// Returns whether every storage it had to read could be read.
    func catchUp(hearing heard: [Int32: [HeardCommit]]) -> Bool {
        for (storage, commits) in heard {
            for commit in commits { heardCommits[storage, default: [:]][commit.id] = commit.tables.map(Set.init) }
            // Notices the snapshots never met (another database's ids cannot arrive; a runaway
            // is only memory): past a bound they are dropped, and their commits read as unknown.
            if heardCommits[storage]?.count ?? 0 > Self.heardCommitsKept { heardCommits[storage] = nil }
        }
        return catchUp()
    }

    /// How many heard commits a storage keeps for its next snapshots.
    static let heardCommitsKept = 10_000

    /// Applies every commit logged so far and ends the snapshots, so the next read starts from
    /// the newest state. Storages that missed commits are re-read at once. Returns whether every
    /// storage it had to read could be read (a failure leaves the commits for the next try).
    @discardableResult
    func catchUp() -> Bool {
        context.endSnapshots()
        // A storage whose writers run side by side takes its commits through its next snapshot,
        // which says which of them it holds (they may be logged out of order); it is opened now.
        for storage in core.commits.storages where appliedSnapshots[storage] == nil {
            let (parts, overflowed) = core.commits.take(storage, upTo: nil)
            apply(parts, overflowed: overflowed, storage: storage)
        }
        // Opening a snapshot re-reads the objects; a failure leaves them for the next read. When
        // something may be observing objects, every storage read so far is re-read now, so that
        // other stacks' and processes' commits reach the observers without waiting for a read.
        let read = Set(applied.keys).union(appliedSnapshots.keys)
        let reread = context.token.hasObservedObjects ? read.union(stale) : stale
        var readAll = true
        for storage in reread.union(appliedSnapshots.keys).sorted() {
            do { _ = try context.connection(for: storage) } catch { readAll = false }
        }
        // A snapshot opened only to apply this stack's commits is not kept open meanwhile.
        context.endSnapshots(of: Set(appliedSnapshots.keys).subtracting(reread))
        context.flushObservation()
        notifyObservers()
        return readAll
    }

    /// Tells every monitor what changed since it last looked. Each monitored storage's snapshot
    /// is pinned first (which applies the commits it holds), so what the monitors read and what
    /// they are told are the same committed state.
    func notifyObservers() {
        let live = observers.observers
        guard !live.isEmpty else {
            observed = ObservedChanges()
            return
        }
        for storage in Set(live.map(\.observedStorage)) {
            // A storage that cannot be read is reported by each of its monitors when it reads.
            _ = try? context.connection(for: storage)
        }
        let changes = observed
        observed = ObservedChanges()
        guard !changes.isEmpty else { return }
        for observer in live where changes.touches(storage: observer.observedStorage) {
            observer.observe(changes, context: context)
        }
    }

    /// Stops every monitor (their sequences end with ``StrataError/stackClosed(model:)``) and
    /// closes the main context's connections: the stack is closing, and its work has ended.
    func close() {
        for observer in observers.observers { observer.stop(core.lifecycle.refusal) }
        context.closeConnections()
    }

    /// Stops every monitor of a storage that can no longer be read or written.
    func stopObservers(of storage: Int32, _ error: StrataError) {
        for observer in observers.observers where observer.observedStorage == storage { observer.stop(error) }
    }

    /// Prepares a new monitor of a storage: pins the storage's snapshot, tells the existing
    /// monitors about everything applied so far, then runs `read`, so the new monitor starts
    /// from exactly the state the others have reached.
    func startObserving<R>(_ storage: Int32, read: () throws(StrataError) -> R) throws(StrataError) -> R {
        _ = try context.connection(for: storage)
        notifyObservers()
        return try read()
    }

    /// Brings the objects of a storage to the state of a snapshot that has just started.
    private func snapshotStarted(_ storage: Int32, _ connection: any DatabaseConnection) throws(StrataError) {
        defer { context.flushObservation() }
        if !core.mainContextHasRead.load(ordering: .relaxed) { core.mainContextHasRead.store(true, ordering: .relaxed) }
        if connection.writesSideBySide { return try serverSnapshotStarted(storage, connection) }
        let counter = try ObjectContext.commitCount(connection)
        let (parts, overflowed) = core.commits.take(storage, upTo: counter)
        guard applied[storage] != nil else {
            // Nothing of this storage is registered yet: its objects will be read from this snapshot.
            applied[storage] = counter
            watcher.start(core: core, main: self)
            return
        }
        apply(parts, overflowed: overflowed, storage: storage)
        if applied[storage] != counter || stale.contains(storage) {
            try reread(storage)
            applied[storage] = counter
        }
    }

    /// ``snapshotStarted(_:_:)`` for a storage whose writers run side by side: this stack's
    /// commits the snapshot sees are applied from the log; when more transactions completed since
    /// the last snapshot than this stack committed, another writer may have committed (or a
    /// transaction was rolled back), and the objects are read again.
    ///
    /// A stack's transactions commit side by side, so their parts may be logged in another order
    /// than the server applied them. Three rules keep the objects exact: a part the last snapshot
    /// already held but the log did not yet (it was counted as another writer's, and the objects
    /// were read again) is skipped; objects that several parts of one snapshot changed are read
    /// again rather than set in the log's order; and the count of completed transactions covers
    /// the rest.
    private func serverSnapshotStarted(_ storage: Int32, _ connection: any DatabaseConnection) throws(StrataError) {
        endAfterThisTurn(storage)
        let snapshot = try connection.snapshotMark()
        let (parts, overflowed) = core.commits.take(storage, visibleIn: snapshot)
        guard let previous = appliedSnapshots[storage] else {
            // Nothing of this storage is registered yet: its objects will be read from this snapshot.
            appliedSnapshots[storage] = snapshot
            watcher.start(core: core, main: self)
            return
        }
        if overflowed { stale.insert(storage) }
        let fresh = parts.filter { !previous.includes($0.counter) }
        var touched: [ObjectKey: Int] = [:]
        for part in fresh {
            for key in part.summary.updated.keys { touched[key, default: 0] += 1 }
            for key in part.summary.deleted.keys { touched[key, default: 0] += 1 }
        }
        for part in fresh {
            apply(part.summary)
            if observers.isActive { observed.add(part.summary, storage: storage) }
        }
        // Commits this snapshot holds whose notifications arrived since the watcher's last poll.
        for commit in watcher.commitsHeardSinceLastPoll(storage) {
            heardCommits[storage, default: [:]][commit.id] = commit.tables.map(Set.init)
        }
        let others = tablesOthersChanged(storage, between: previous, and: snapshot, own: Set(fresh.map(\.counter)))
        if stale.contains(storage) || others == nil {
            try reread(storage)
        } else {
            let overlapping = Set(touched.filter { $0.value > 1 }.keys)
            if let others, !others.isEmpty { try reread(storage, tables: others, also: overlapping) } else if !overlapping.isEmpty {
                try reread(storage, only: overlapping)
            }
        }
        appliedSnapshots[storage] = snapshot
    }

    /// The tables (by index) that other writers' commits between two snapshots changed: empty
    /// when every transaction that completed meanwhile is one of `own` (this stack's commits);
    /// nil when any other one is not a heard commit whose tables are known (a rolled-back
    /// transaction, a commit that changed relationships, another program's, a lost notice), or
    /// too many completed to name.
    private func tablesOthersChanged(_ storage: Int32, between previous: TransactionSnapshot, and snapshot: TransactionSnapshot,
                                     own: Set<Int64>) -> Set<Int32>? {
        defer { heardCommits[storage] = heardCommits[storage]?.filter { !snapshot.includes($0.key) } }
        guard let completed = snapshot.completedIDs(since: previous, limit: Self.heardCommitsKept) else { return nil }
        var names: Set<String> = []
        for id in completed where !own.contains(id) {
            guard let heard = heardCommits[storage]?[id], let tables = heard else { return nil }
            names.formUnion(tables)
        }
        var tables: Set<Int32> = []
        for name in names {
            guard let index = core.layout.tables.firstIndex(where: { $0.name == name }) else { return nil }
            tables.insert(Int32(index))
        }
        return tables
    }

    /// Ends a server storage's snapshot once the main actor's current work is done. What one
    /// stretch of main-actor code reads is one committed state; between stretches, a read
    /// transaction left open would hold back the server's cleanup of old rows (VACUUM) and pin a
    /// connection of a pooler in transaction mode, so the next stretch starts a new snapshot, which
    /// brings the live objects up to it.
    private func endAfterThisTurn(_ storage: Int32) {
        guard endingSnapshots.insert(storage).inserted else { return }
        // Held weakly: a stack closed before the main actor gets here closes its connections now.
        Task { @MainActor [weak self] in
            guard let self else { return }
            endingSnapshots.remove(storage)
            context.endSnapshots(of: [storage])
        }
    }

    /// Reads again the live objects of a storage's `tables` (and those with `also`'s keys),
    /// telling the monitors of those tables to read their lists again.
    private func reread(_ storage: Int32, tables: Set<Int32>, also keys: Set<ObjectKey>) throws(StrataError) {
        let inTables = context.registered.values.lazy.map(\.key).filter { $0.storage == storage && tables.contains($0.table) }
        if observers.isActive {
            for table in tables { observed.undescribedTables.insert(StackCore.TableKey(storage: storage, table: table)) }
        }
        try reread(storage, only: keys.union(inTables), describing: false)
    }

    /// Reads a storage's live objects again (those with `only`'s keys, when given), telling the
    /// monitors what changed; `describing`: monitors of the whole storage read their lists again.
    private func reread(_ storage: Int32, only keys: Set<ObjectKey>? = nil, describing: Bool = true) throws(StrataError) {
        if observers.isActive {
            if describing { observed.undescribed.insert(storage) }
            objectsReread += try context.refreshRegistered(storage: storage, only: keys) { object, columns in
                self.observed.reread[object.key] = (object.layout?.name ?? "", columns)
            }
        } else {
            objectsReread += try context.refreshRegistered(storage: storage, only: keys)
        }
        if keys == nil { stale.remove(storage) }
    }

    /// Applies a storage's logged commits in order; a gap in their counts marks it stale.
    private func apply(_ parts: [CommitLog.Part], overflowed: Bool, storage: Int32) {
        guard var known = applied[storage] else { return }
        if overflowed { stale.insert(storage) }
        for part in parts where part.counter > known {
            if part.counter != known + 1 { stale.insert(storage) }
            apply(part.summary)
            if observers.isActive { observed.add(part.summary, storage: storage) }
            known = part.counter
        }
        applied[storage] = known
    }

    /// Brings live objects up to date with a commit: new values in place, deletions marked.
    private func apply(_ summary: CommitSummary) {
        guard !summary.isEmpty else { return }
        for (key, change) in summary.updated {
            guard let object = context.registeredObject(key) else { continue }
            ObjectContext.setValues(change.values, of: object)
            context.noteObservedChange(object, columns: change.columns)
        }
        do throws(StrataError) {
            // The values a commit wrote that the app's own decode function refuses: the objects
            // leave the map (a fetch reads them anew and reports it), and the log says why.
            try context.throwReadFailures(forgetting: true)
        } catch {
            StrataDefaults.logger.log(error: error, message: "the main context could not apply a commit's values", file: #fileID, line: #line)
        }
        if summary.relationshipsChanged {
            for object in context.registered.values {
                object.toManyKeys = nil
                context.noteObservedChange(object, columns: ColumnSet(), relationships: true)
            }
        }
        for key in summary.deleted.keys {
            guard let object = context.registeredObject(key) else { continue }
            object.deleted = true
            context.registered[key] = nil
            context.noteObservedChange(object, columns: ColumnSet(), deleted: true)
        }
    }
}
