import Strata
import StrataSyncCore

/// One row of `strata_sync_objects`: a synced object's global ID, where its row is, and its state.
struct SyncRecord: Sendable {
    var gid: GlobalID
    var entity: String
    var table: String
    /// The object's row; nil once it is deleted.
    var rowID: Int64?
    /// The account it belongs to, for an entity with an owner.
    var owner: String?
    /// On a server, the sequence number of its last change.
    var sequence: Int64
    var state: SyncedObject
    /// On a client, its changes not yet pushed.
    var pending: SyncedObject?
    /// On a client, when it first had changes not yet pushed (pushes go in this order).
    var pendingOrder: Int64?
    /// Whether its state names objects this node does not have yet.
    var unresolved: Bool
    /// The indexed columns as read from the table; nil for a record not stored yet.
    var stored: IndexedColumns?

    /// The columns an index of `strata_sync_objects` holds: a save leaves those that did not
    /// change alone, so their indexes are not rewritten.
    struct IndexedColumns: Equatable {
        var rowID: Int64?
        var sequence: Int64
        var pendingOrder: Int64?
    }

    /// The `pending` column's value: NULL, with a pending order, when the changes not yet pushed
    /// are the whole state (an object created or adopted here and not pushed since), whose bytes
    /// are then stored once.
    var storedPending: SQLValue {
        guard let pending, pending != state else { return .null }
        return .blob(pending.storedBytes)
    }

    /// The indexed columns as the record holds them now.
    var indexedColumns: IndexedColumns {
        IndexedColumns(rowID: rowID, sequence: sequence, pendingOrder: pendingOrder)
    }

    init(gid: GlobalID, entity: String, table: String, rowID: Int64?) {
        self.gid = gid
        self.entity = entity
        self.table = table
        self.rowID = rowID
        owner = nil
        sequence = 0
        state = SyncedObject()
        pending = nil
        pendingOrder = nil
        unresolved = false
        stored = nil
    }
}
