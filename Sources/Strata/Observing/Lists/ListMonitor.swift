import Observation

/// One step of a monitored list: what changed, and the list after it.
public struct ListUpdate<T: StrataObject>: Sendable, Hashable {
    /// The changes from the list the consumer saw last (see ``ListChangeSet``).
    public let changes: ListChangeSet<T>
    /// The list after the changes.
    public let snapshot: ListSnapshot<T>
}

/// A fetch kept up to date on the main actor: its objects in order (in sections for a sectioned
/// list), and an `AsyncSequence` of ``ListUpdate``s, one per commit that changed the list.
///
/// A commit that touches none of the list's tables costs the monitor nothing. One that changes a
/// few rows re-reads only those rows' ids and sort values and moves them into place; no other
/// object is read. Objects are read when asked for, and the live ones are shared with the main
/// context.
///
/// ```swift
/// let monitor = try stack.monitorList(From<Person>().where(\.age > 30).orderBy(.ascending(\.name)))
/// for try await update in monitor.updates {
///     tableView.apply(update.changes)     // or a diffable data source: update.snapshot
/// }
/// ```
///
/// It is `Observable`: a SwiftUI view (or `withObservationTracking`) that reads `objects`,
/// `numberOfObjects`, `sections`, `snapshot` or an object by position is told when the list
/// changes: an object added, removed, moved or updated, as `updates` reports them.
@MainActor
public final class ListMonitor<T: StrataObject>: ChangeObserver, Observable {
    /// The stack monitored.
    public let stack: DataStack
    private var fetch: MonitoredFetch
    private var labels: SectionLabels
    private var state: ListState
    /// Each member's entry, to find it in the list without searching.
    private var members: [ObjectKey: ListEntry] = [:]
    private var subscribers = EventSubscribers<ListUpdate<T>>()
    /// Consumers of snapshots alone (``ListPublisher``).
    private var snapshotSubscribers = EventSubscribers<ListSnapshot<T>>()
    /// Why the monitor stopped, if it did.
    private var failure: StrataError?
    /// The list as it is now (read through ``snapshot``).
    private var current: ListSnapshot<T>
    private let registrar = ObservationRegistrar()

    /// The list as it is now.
    public var snapshot: ListSnapshot<T> {
        observeList()
        return current
    }

    /// Reports a read of the list to Observation: every public reader of the list calls it.
    private func observeList() { registrar.access(self, keyPath: \.snapshot) }

    init(stack: DataStack, chain: FetchChainBuilder<T>, sectionBy: SectionBy<T>?) throws(StrataError) {
        self.stack = stack
        let context = stack.main.context
        let fetch = try MonitoredFetch(chain, sectionBy: sectionBy, context: context)
        self.fetch = fetch
        labels = sectionBy?.labels ?? .plain
        state = try stack.main.startObserving(fetch.storage.index) { () throws(StrataError) in try fetch.readAll(context) }
        current = ListSnapshot(state: state, labels: labels)
        members = Dictionary(uniqueKeysWithValues: state.entries.all.map { ($0.key, $0) })
        stack.main.observers.add(self)
    }

    /// A new sequence of this list's updates, from now on. Each consumer gets every change, in
    /// commit order; one that falls behind gets the changes it missed merged into one update.
    /// After a failure (the store became unreadable) the sequence throws it.
    public var updates: MonitorEvents<ListUpdate<T>> {
        let buffer = EventBuffer<ListUpdate<T>>(limit: Self.pendingLimit, initial: ListUpdate(changes: ListChangeSet(), snapshot: current)) { last, pending in
            Self.merge(from: last, pending)
        }
        if let failure { buffer.finish(throwing: failure) } else { subscribers.add(buffer) }
        return MonitorEvents(buffer: buffer, owner: self)
    }

    /// A buffer that gets the current snapshot now and the newest one after each change; a
    /// consumer that lags gets only the newest.
    func snapshots() -> EventBuffer<ListSnapshot<T>> {
        let buffer = EventBuffer<ListSnapshot<T>>(limit: 1) { _, pending in pending[pending.count - 1] }
        buffer.send(current)
        if let failure { buffer.finish(throwing: failure) } else { snapshotSubscribers.add(buffer) }
        return buffer
    }

    /// Past this many updates a consumer has not taken, they are merged into one.
    static var pendingLimit: Int { 16 }

    /// The update from the list a consumer saw last to the newest.
    nonisolated static func merge(from last: ListUpdate<T>?, _ pending: [ListUpdate<T>]) -> ListUpdate<T> {
        guard let newest = pending.last else { preconditionFailure("Strata: nothing to merge") }
        guard let base = last?.snapshot else { return newest }
        var updated = Set<ObjectKey>()
        for update in pending {
            for item in update.changes.updated { updated.insert(item.objectID.key) }
            for item in update.changes.moved where item.isUpdated { updated.insert(item.objectID.key) }
        }
        return ListUpdate(changes: ListDiff.changes(from: base.state, to: newest.snapshot.state, updated: updated), snapshot: newest.snapshot)
    }

    /// How many objects the list holds.
    public var numberOfObjects: Int {
        observeList()
        return state.count
    }

    /// How many sections the list has (a plain list has one).
    public var numberOfSections: Int {
        observeList()
        return state.sections.count
    }

    /// The sections, with their identifiers, names, index titles and sizes.
    public var sections: [ListSnapshot<T>.Section] { snapshot.sections }

    /// The titles of a side index, each once, in section order (see ``ListSnapshot/sectionIndexTitles``).
    public var sectionIndexTitles: [String] { snapshot.sectionIndexTitles }

    /// The first section with an index title; nil when none has it.
    public func section(forSectionIndexTitle title: String) -> Int? {
        snapshot.section(forSectionIndexTitle: title)
    }

    /// The object at an index path; nil when it is out of range or its row is gone.
    public func object(at indexPath: ListIndexPath) -> T? {
        observeList()
        guard indexPath.section >= 0, indexPath.section < state.sections.count,
              indexPath.item >= 0, indexPath.item < state.sections[indexPath.section].count else { return nil }
        return object(at: state.index(of: indexPath))
    }

    /// The object at a position in the whole list; nil when it is out of range or its row is gone.
    public func object(at index: Int) -> T? {
        observeList()
        guard index >= 0, index < state.count else { return nil }
        return objects(for: [state.entries[index]]).first ?? nil
    }

    /// Every object, in order.
    public var objects: [T] {
        observeList()
        return objects(for: state.entries.all).compactMap { $0 }
    }

    /// The objects of a section, in order.
    public func objects(inSection section: Int) -> [T] {
        observeList()
        guard section >= 0, section < state.sections.count else { return [] }
        let start = state.index(of: ListIndexPath(item: 0, section: section))
        return objects(for: (start..<(start + state.sections[section].count)).map { state.entries[$0] }).compactMap { $0 }
    }

    /// Where an object is in the list, or nil when the list does not hold it.
    public func indexPath(of object: T) -> ListIndexPath? {
        observeList()
        return members[object.key].flatMap(state.indexPath(of:))
    }

    /// The main context's objects for entries; a read failure is logged and leaves them out.
    private func objects(for entries: [ListEntry]) -> [T?] {
        do {
            return try stack.main.context.objects(for: entries.map(\.key)).map { $0 as? T }
        } catch {
            log(.warning, "a list monitor of \(T.entityName) could not read its objects: \(error)")
            return entries.map { _ in nil }
        }
    }

    /// Monitors another fetch of the same entity; consumers get the change from the old list to
    /// the new one as an update.
    public func refetch<F: FetchDescription>(_ fetch: F) throws(StrataError) where F.Entity == T {
        try refetch(fetch.fetchChain, sectionBy: nil)
    }

    /// Monitors another sectioned fetch of the same entity (see ``refetch(_:)-(F)``).
    public func refetch(_ fetch: SectionedFetchChain<T>) throws(StrataError) {
        try refetch(fetch.fetchChain, sectionBy: fetch.sectionBy)
    }

    private func refetch(_ chain: FetchChainBuilder<T>, sectionBy: SectionBy<T>?) throws(StrataError) {
        let context = stack.main.context
        let fetch = try MonitoredFetch(chain, sectionBy: sectionBy, context: context)
        let state = try stack.main.startObserving(fetch.storage.index) { () throws(StrataError) in try fetch.readAll(context) }
        self.fetch = fetch
        labels = sectionBy?.labels ?? .plain
        replace(with: state, updated: [])
    }

    /// Takes a newly read state, sending the change from the old one.
    private func replace(with new: ListState, updated: Set<ObjectKey>) {
        let changes: ListChangeSet<T> = ListDiff.changes(from: state, to: new, updated: updated)
        state = new
        members = Dictionary(uniqueKeysWithValues: new.entries.all.map { ($0.key, $0) })
        publish(changes)
    }

    private func publish(_ changes: ListChangeSet<T>) {
        let old = current
        let new = ListSnapshot<T>(state: state, labels: labels)
        guard !changes.isEmpty || old.sections != new.sections else {
            current = new
            return
        }
        registrar.withMutation(of: self, keyPath: \.snapshot) { current = new }
        subscribers.send(ListUpdate(changes: changes, snapshot: new))
        snapshotSubscribers.send(new)
    }

    // MARK: ChangeObserver

    var observedStorage: Int32 { fetch.storage.index }

    func observe(_ changes: ObservedChanges, context: ObjectContext) {
        guard failure == nil else { return }
        let table = fetch.table
        let rows = changes.rows[table] ?? [:]
        var updated = Set<ObjectKey>()
        for (rowID, change) in rows where !change.isInserted && !change.isDeleted {
            updated.insert(ObjectKey(storage: table.storage, table: table.table, rowID: rowID))
        }
        for (key, reread) in changes.reread where key.storage == table.storage && key.table == table.table && reread.columns != nil {
            updated.insert(key)
        }
        do {
            let readsAll = changes.undescribed.contains(table.storage) || changes.undescribedTables.contains(table)
                || (fetch.readsAllOnChange && changes.touches(storage: table.storage))
                || fetch.joinedTables.contains { joined in
                    let key = StackCore.TableKey(storage: table.storage, table: joined)
                    return changes.rows[key] != nil || changes.undescribedTables.contains(key)
                }
            if readsAll {
                replace(with: try fetch.readAll(context), updated: updated)
                return
            }
            guard !rows.isEmpty else { return }
            var candidates: [ObjectKey: ListEntry?] = [:]
            var unknown: [Int64] = []
            for (rowID, change) in rows {
                let key = ObjectKey(storage: table.storage, table: table.table, rowID: rowID)
                if let columns = change.columns, !change.isInserted, !movesAnything(columns, entity: change.entity) {
                    // Neither membership nor order can have changed.
                    if let entry = members[key] { candidates.updateValue(entry, forKey: key) }
                } else {
                    unknown.append(rowID)
                }
            }
            if !unknown.isEmpty {
                let found = try fetch.read(rowIDs: unknown, context)
                for rowID in unknown {
                    let key = ObjectKey(storage: table.storage, table: table.table, rowID: rowID)
                    candidates.updateValue(found[key], forKey: key)
                }
            }
            publish(ListDiff.apply(candidates, updated: updated, to: &state, members: &members))
        } catch {
            stop(error)
        }
    }

    /// Whether changing these columns of an entity's row can change membership or order.
    private func movesAnything(_ columns: ColumnSet, entity: String) -> Bool {
        guard let layout = stack.core.layout.entity(entity) else { return true }
        return columns.ordinals.contains { $0 >= layout.columns.count || fetch.dependentColumns.contains(layout.columns[$0].name) }
    }

    /// Stops the monitor: every consumer's sequence throws `error`.
    func stop(_ error: StrataError) {
        guard failure == nil else { return }
        log(error.monitorStopLevel, "a list monitor of \(T.entityName) stopped: \(error)")
        failure = error
        subscribers.finish(throwing: error)
        snapshotSubscribers.finish(throwing: error)
    }
}
