/// Code that runs inside every commit to one storage, after the commit's rows are written and
/// before `COMMIT`: what it writes commits with them, or fails the commit and rolls all of it back.
/// The sync engine installs one on a synced storage (``DataStack/installCommitHook(_:configuration:)``)
/// to stamp and record each change in the same transaction.
package protocol CommitHook: AnyObject, Sendable {
    /// Runs inside the storage's write transaction, on `connection`, with what the commit changed
    /// in the storage. Throwing fails the commit.
    func willCommit(_ changes: [HookedChange], on connection: any DatabaseConnection) throws(StrataError)

    /// Runs after the commit succeeded, outside every lock.
    func didCommit()
}

/// One object a commit created, changed or deleted, as a commit hook sees it.
package struct HookedChange {
    /// What happened to the object.
    package enum Kind: Equatable {
        /// Created by the commit.
        case inserted
        /// Changed: the ordinals of the columns that changed (``SyncEntityShape/columns``).
        case updated(changed: [Int])
        /// Deleted (cascades included).
        case deleted
    }

    /// The object's entity.
    package let entity: String
    /// Its row id in its table.
    package let rowID: Int64
    /// What happened.
    package let kind: Kind
    /// Every column's value in column order, foreign keys as row ids; empty for a deletion.
    package let values: [SQLValue]
    /// The to-many relationships (by name) the commit added members to or removed members from.
    package let toMany: Set<String>
    /// Whether the sync engine created or set the object in this transaction, to hold changes it
    /// applied (whose records it keeps itself); a deletion is never marked.
    package let appliedBySync: Bool

    /// A change as a commit (or the sync engine, recording objects stored before sync began) lists it.
    package init(entity: String, rowID: Int64, kind: Kind, values: [SQLValue], toMany: Set<String>, appliedBySync: Bool = false) {
        self.entity = entity
        self.rowID = rowID
        self.kind = kind
        self.values = values
        self.toMany = toMany
        self.appliedBySync = appliedBySync
    }
}
