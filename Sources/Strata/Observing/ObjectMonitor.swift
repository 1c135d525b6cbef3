import Observation

/// What happened to a monitored object.
public enum ObjectUpdate: Sendable, Hashable {
    /// Its values changed: the names of the attributes and to-one relationships that changed.
    case updated(changedProperties: Set<String>)
    /// It was deleted; the sequence ends after this.
    case deleted
}

/// One object kept up to date on the main actor, and an `AsyncSequence` of what happens to it.
///
/// ```swift
/// let monitor = try stack.monitorObject(personID)
/// for try await update in monitor.updates {
///     if case .updated(let properties) = update, properties.contains("name") { label.text = monitor.object?.name }
/// }
/// ```
///
/// It is `Observable`: a view that reads `object` or `isDeleted` is told when the object is
/// updated or deleted (and one that reads `object?.name` is told by the object itself when its
/// name changes).
@MainActor
public final class ObjectMonitor<T: StrataObject>: ChangeObserver, Observable {
    /// The stack monitored.
    public let stack: DataStack
    /// The object's ID.
    public let objectID: ObjectID<T>
    /// The main context's live object (read through ``object``).
    private var current: T?
    private let registrar = ObservationRegistrar()

    /// The main context's live object; nil once it was deleted.
    public var object: T? {
        registrar.access(self, keyPath: \.object)
        return current
    }

    /// Whether the object was deleted (``object`` is then nil).
    public var isDeleted: Bool { object == nil }
    private var subscribers = EventSubscribers<ObjectUpdate>()
    /// Snapshot consumers: told the object after each change (nil once deleted), or why the
    /// monitor stopped; each returns whether it still listens.
    private var listeners: [(Result<T?, StrataError>) -> Bool] = []
    /// Why the monitor stopped, if it did.
    private var failure: StrataError?

    init(stack: DataStack, objectID: ObjectID<T>) throws(StrataError) {
        self.stack = stack
        self.objectID = objectID
        let key = objectID.key
        let object = try stack.main.startObserving(key.storage) { () throws(StrataError) in
            try stack.main.context.existingObject(key, entityName: objectID.entityName)
        }
        guard let object = object as? T else { throw .objectNotFound("\(objectID.entityName) #\(objectID.rowID)") }
        current = object
        stack.main.observers.add(self)
    }

    /// A new sequence of what happens to the object from now on. Updates a consumer has not
    /// taken yet are merged (their property names joined); a deletion ends the sequence.
    public var updates: MonitorEvents<ObjectUpdate> {
        let buffer = EventBuffer<ObjectUpdate>(limit: 1) { _, pending in Self.merge(pending) }
        if let failure {
            buffer.finish(throwing: failure)
        } else if current == nil {
            buffer.send(.deleted)
            buffer.finish()
        } else {
            subscribers.add(buffer)
        }
        return MonitorEvents(buffer: buffer, owner: self)
    }

    /// A buffer of the object's snapshots: the current one now, the newest after each change
    /// (a consumer that lags gets only the newest), then nil when it is deleted, which ends it.
    func snapshots<S: EntitySnapshot>(_ type: S.Type) -> EventBuffer<S?> where S.Object == T {
        let buffer = EventBuffer<S?>(limit: 1) { _, pending in pending.contains { $0 == nil } ? nil : pending[pending.count - 1] }
        buffer.send(current.map(S.init))
        if current == nil || failure != nil {
            buffer.finish(throwing: failure)
            return buffer
        }
        listeners.append { [weak buffer] news in
            guard let buffer else { return false }
            switch news {
            case .success(let object?): buffer.send(S(object))
            case .success(nil):
                buffer.send(nil)
                buffer.finish()
            case .failure(let error): buffer.finish(throwing: error)
            }
            return true
        }
        return buffer
    }

    /// Updates folded into one: a deletion wins, otherwise every changed property.
    nonisolated static func merge(_ pending: [ObjectUpdate]) -> ObjectUpdate {
        var properties = Set<String>()
        for update in pending {
            switch update {
            case .deleted: return .deleted
            case .updated(let changed): properties.formUnion(changed)
            }
        }
        return .updated(changedProperties: properties)
    }

    // MARK: ChangeObserver

    var observedStorage: Int32 { objectID.key.storage }

    func stop(_ error: StrataError) {
        guard failure == nil, current != nil else { return }
        log(error.monitorStopLevel, "an object monitor of \(objectID) stopped: \(error)")
        failure = error
        subscribers.finish(throwing: error)
        for listener in listeners { _ = listener(.failure(error)) }
        listeners.removeAll()
    }

    func observe(_ changes: ObservedChanges, context: ObjectContext) {
        guard let object = current, failure == nil else { return }
        let key = objectID.key
        var deleted = false
        var columns = ColumnSet()
        var relationships = Set<String>()
        if let row = changes.rows[StackCore.TableKey(storage: key.storage, table: key.table)]?[key.rowID] {
            if row.isDeleted { deleted = true } else if let changed = row.columns { columns.formUnion(changed) }
            relationships = row.relationships
        }
        if let reread = changes.reread[key] {
            if let changed = reread.columns { columns.formUnion(changed) } else { deleted = true }
        }
        if deleted || object.deleted {
            registrar.withMutation(of: self, keyPath: \.object) { current = nil }
            subscribers.send(.deleted)
            subscribers.finish()
            listeners.removeAll { !$0(.success(nil)) }
            return
        }
        guard columns != ColumnSet() || !relationships.isEmpty, let layout = object.layout else { return }
        let names = columns.ordinals.compactMap { $0 < layout.columns.count ? layout.columns[$0].property : nil }
        registrar.withMutation(of: self, keyPath: \.object) {}
        subscribers.send(.updated(changedProperties: relationships.union(names)))
        listeners.removeAll { !$0(.success(object)) }
    }
}
