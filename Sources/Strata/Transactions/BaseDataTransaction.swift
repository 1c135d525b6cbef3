/// What every transaction can do: create, edit, delete and fetch objects, seeing its own changes.
///
/// Transactions are not `Sendable`: use one only inside the closure (or, for an unsafe
/// transaction, on the thread) it was given to.
public class BaseDataTransaction: FetchingContext, CustomDebugStringConvertible {
    var isFinished = false

    /// `<AsynchronousDataTransaction: 2 created, 1 updated, 0 deleted>`.
    public var debugDescription: String {
        "<\(type(of: self)): \(insertedObjects().count) created, \(context.log.updated.count) updated, \(context.log.deleted.count) deleted"
            + (isFinished ? ", finished>" : ">")
    }

    /// Whether anything was created, changed or deleted and not yet committed.
    public var hasChanges: Bool { context.hasChanges }

    /// Creates an object; it is stored when the transaction commits.
    @inlinable @discardableResult
    public func create<T: StrataObject>(_ into: Into<T>) -> T {
        unsafeDowncast(context.createObject(T.self, configuration: into.target), to: T.self)
    }

    /// This transaction's instance of an object from any context, to change it; nil when it was deleted.
    public func edit<T: StrataObject>(_ object: T?) -> T? {
        guard let object else { return nil }
        return fetchExisting(object)
    }

    /// This transaction's instance of the object with an ID, to change it; nil when it is gone.
    public func edit<T: StrataObject>(_ objectID: ObjectID<T>) -> T? {
        fetchExisting(objectID)
    }

    /// Deletes objects (from any context: this transaction's instances are deleted); returns how
    /// many it deleted (nil, already deleted and repeated objects are not counted).
    @discardableResult
    public func delete(_ objects: StrataObject?...) -> Int {
        delete(objects.compactMap { $0 })
    }

    /// Deletes every object of a sequence; returns how many it deleted (already deleted and
    /// repeated objects are not counted).
    @discardableResult
    public func delete<S: Sequence>(_ objects: S) -> Int where S.Element: StrataObject {
        var count = 0
        for object in objects {
            guard let mine = fetchExisting(object) else { continue }
            context.delete(mine)
            count += 1
        }
        return count
    }

    /// Deletes every object a fetch finds; returns how many.
    @discardableResult
    public func deleteAll<F: FetchDescription>(_ fetch: F) throws(StrataError) -> Int {
        let objects = try context.guardingReads { () throws(StrataError) in try context.fetch(fetch.fetchChain) }
        for object in objects { context.delete(object) }
        return objects.count
    }

    /// Deletes every object a fetch with clauses as separate arguments finds; returns how many:
    /// `transaction.deleteAll(From<Person>(), Where<Person>(\.age > 90))` (see ``FetchClause``).
    @discardableResult
    public func deleteAll<T>(_ from: From<T>, _ clauses: any FetchClause...) throws(StrataError) -> Int {
        try deleteAll(from.refined(by: clauses))
    }

    /// This transaction's instance of an object from any context; nil when it no longer exists.
    public func fetchExisting<T: StrataObject>(_ object: T) -> T? {
        if object.token === context.token { return object.deleted ? nil : object }
        guard let found = try? context.existingObject(object.key, entityName: type(of: object).entityName) else { return nil }
        return found as? T
    }

    /// This transaction's instances of several objects, skipping those that no longer exist.
    public func fetchExisting<T: StrataObject, S: Sequence>(_ objects: S) -> [T] where S.Element == T {
        objects.compactMap { fetchExisting($0) }
    }

    /// Objects created in this transaction and not yet committed.
    public func insertedObjects() -> [StrataObject] {
        context.created.filter { !$0.deleted }
    }

    /// Objects changed in this transaction and not yet committed.
    public func updatedObjects() -> [StrataObject] {
        context.log.updated.values.sorted { $0.rowID < $1.rowID }
    }

    /// IDs of objects deleted in this transaction and not yet committed.
    public func deletedObjectIDs<T: StrataObject>(_ type: T.Type = StrataObject.self) -> [ObjectID<T>] {
        context.log.deleted.map { ObjectID<T>(key: $0.key, entityName: $0.value) }.sorted { $0.rowID < $1.rowID }
    }
}

/// The transaction of `perform(asynchronous:)` and `async perform`: it commits when its closure
/// returns and rolls back when the closure throws.
public final class AsynchronousDataTransaction: BaseDataTransaction {
    /// Rolls everything back and ends the transaction with ``StrataError/userCancelled``.
    public func cancel() throws(StrataError) -> Never {
        throw .userCancelled
    }
}

/// The transaction of `perform(synchronous:)`: like the asynchronous one, but the caller waits.
public final class SynchronousDataTransaction: BaseDataTransaction {
    /// Rolls everything back and ends the transaction with ``StrataError/userCancelled``.
    public func cancel() throws(StrataError) -> Never {
        throw .userCancelled
    }
}
