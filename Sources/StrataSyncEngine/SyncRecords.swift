import Strata
import StrataSyncCore

/// Reading and writing ``SyncRecord``s on one connection, inside its transaction.
struct SyncRecords {
    let connection: any DatabaseConnection

    private static let columns = "gid, entity, table_name, row_id, owner, sequence, state, pending, pending_order, unresolved"
    private static let selectionByID = "SELECT \(columns) FROM \(SyncTables.objects) WHERE gid = ?"
    private static let selectionByRow = "SELECT \(columns) FROM \(SyncTables.objects) WHERE table_name = ? AND row_id = ?"
    /// The updates of a stored record, by which indexed columns changed (1: row_id, 2: sequence,
    /// 4: pending_order): a column that did not change is not written, so its index is not touched.
    private static let updates: [String] = (0..<8).map { changed in
        var assignments = "state = ?, pending = ?, owner = ?, unresolved = ?"
        if changed & 1 != 0 { assignments += ", row_id = ?" }
        if changed & 2 != 0 { assignments += ", sequence = ?" }
        if changed & 4 != 0 { assignments += ", pending_order = ?" }
        return "UPDATE \(SyncTables.objects) SET \(assignments) WHERE gid = ?"
    }
    private static let insertion = "INSERT INTO \(SyncTables.objects) (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (gid) DO UPDATE SET "
        + "entity = excluded.entity, table_name = excluded.table_name, row_id = excluded.row_id, owner = excluded.owner, "
        + "sequence = excluded.sequence, state = excluded.state, pending = excluded.pending, pending_order = excluded.pending_order, "
        + "unresolved = excluded.unresolved"

    /// The record of an object, by its global ID.
    func record(_ gid: GlobalID) throws(StrataError) -> SyncRecord? {
        let statement = try connection.cachedStatement(Self.selectionByID)
        defer { statement.reset() }
        statement.bind(gid.text, at: 1)
        guard try statement.step() else { return nil }
        return try read(statement.row)
    }

    /// The records of `gids` that are stored, by global ID: one statement per 64 of them
    /// rather than one each.
    func records(_ gids: [GlobalID]) throws(StrataError) -> [GlobalID: SyncRecord] {
        let chunk = 64
        let statement = try connection.cachedStatement(Self.chunkSelection)
        defer { statement.reset() }
        var found: [GlobalID: SyncRecord] = [:]
        for start in stride(from: 0, to: gids.count, by: chunk) {
            let part = gids[start..<min(start + chunk, gids.count)]
            // A short last chunk repeats its first ID in the places left.
            for place in 0..<chunk {
                statement.bind((place < part.count ? part[part.startIndex + place] : part[part.startIndex]).text, at: Int32(place + 1))
            }
            while try statement.step() {
                let record = try read(statement.row)
                found[record.gid] = record
            }
            statement.reset()
        }
        return found
    }

    private static let chunkSelection = "SELECT \(columns) FROM \(SyncTables.objects) WHERE gid IN ("
        + Array(repeating: "?", count: 64).joined(separator: ", ") + ")"

    /// The record of the object stored in `table` with `rowID`.
    func record(table: String, rowID: Int64) throws(StrataError) -> SyncRecord? {
        let statement = try connection.cachedStatement(Self.selectionByRow)
        defer { statement.reset() }
        statement.bind(table, at: 1)
        statement.bind(rowID, at: 2)
        guard try statement.step() else { return nil }
        return try read(statement.row)
    }

    /// Up to `limit` records whose global IDs sort after `gid`, in that order.
    func records(after gid: String, limit: Int) throws(StrataError) -> [SyncRecord] {
        let statement = try connection.cachedStatement("SELECT \(Self.columns) FROM \(SyncTables.objects) WHERE gid > ? ORDER BY gid LIMIT ?")
        defer { statement.reset() }
        statement.bind(gid, at: 1)
        statement.bind(Int64(limit), at: 2)
        var found: [SyncRecord] = []
        while try statement.step() { found.append(try read(statement.row)) }
        return found
    }

    /// Removes the record of `gid`.
    func remove(_ gid: GlobalID) throws(StrataError) {
        let statement = try connection.cachedStatement("DELETE FROM \(SyncTables.objects) WHERE gid = ?")
        defer { statement.reset() }
        statement.bind(gid.text, at: 1)
        try statement.step()
    }

    /// The global ID of the object stored in `table` with `rowID`.
    func gid(table: String, rowID: Int64) throws(StrataError) -> GlobalID? {
        let statement = try connection.cachedStatement("SELECT gid FROM \(SyncTables.objects) WHERE table_name = ? AND row_id = ?")
        defer { statement.reset() }
        statement.bind(table, at: 1)
        statement.bind(rowID, at: 2)
        guard try statement.step() else { return nil }
        return GlobalID(statement.row.string(0))
    }

    /// Where the object with a global ID is stored: its entity and row; nil when this node has
    /// no row for it (unknown, or deleted).
    func row(of gid: GlobalID) throws(StrataError) -> (entity: String, rowID: Int64)? {
        let statement = try connection.cachedStatement("SELECT entity, row_id FROM \(SyncTables.objects) WHERE gid = ? AND row_id IS NOT NULL")
        defer { statement.reset() }
        statement.bind(gid.text, at: 1)
        guard try statement.step() else { return nil }
        return (statement.row.string(0), statement.row.int64(1))
    }

    /// Writes a record: a new one whole, a stored one by its state and the columns that changed.
    func save(_ record: SyncRecord) throws(StrataError) {
        guard let stored = record.stored else { return try insert(record) }
        let now = record.indexedColumns
        var values: [SQLValue] = [.blob(record.state.storedBytes), record.storedPending,
                                  record.owner.map(SQLValue.text) ?? .null, .integer(record.unresolved ? 1 : 0)]
        var changedColumns = 0
        if now.rowID != stored.rowID {
            changedColumns |= 1
            values.append(now.rowID.map(SQLValue.integer) ?? .null)
        }
        if now.sequence != stored.sequence {
            changedColumns |= 2
            values.append(.integer(now.sequence))
        }
        if now.pendingOrder != stored.pendingOrder {
            changedColumns |= 4
            values.append(now.pendingOrder.map(SQLValue.integer) ?? .null)
        }
        let statement = try connection.cachedStatement(Self.updates[changedColumns])
        defer { statement.reset() }
        for (index, value) in values.enumerated() { statement.bind(value, at: Int32(index + 1)) }
        statement.bind(record.gid.text, at: Int32(values.count + 1))
        try statement.step()
    }

    /// Writes records as ``save(_:)`` does, finding the statement that inserts once for all.
    func save(_ batch: [SyncRecord]) throws(StrataError) {
        var insertion: (any DatabaseStatement)?
        for record in batch {
            guard record.stored == nil else {
                try save(record)
                continue
            }
            let statement: any DatabaseStatement
            if let insertion {
                statement = insertion
            } else {
                statement = try connection.cachedStatement(Self.insertion)
                insertion = statement
            }
            try insert(record, with: statement)
        }
    }

    /// Writes a record not stored before (replacing one with its global ID, should there be one).
    private func insert(_ record: SyncRecord) throws(StrataError) {
        try insert(record, with: connection.cachedStatement(Self.insertion))
    }

    private func insert(_ record: SyncRecord, with statement: any DatabaseStatement) throws(StrataError) {
        defer { statement.reset() }
        statement.bind(record.gid.text, at: 1)
        statement.bind(record.entity, at: 2)
        statement.bind(record.table, at: 3)
        statement.bind(record.rowID.map(SQLValue.integer) ?? .null, at: 4)
        statement.bind(record.owner.map(SQLValue.text) ?? .null, at: 5)
        statement.bind(record.sequence, at: 6)
        statement.bind(.blob(record.state.storedBytes), at: 7)
        statement.bind(record.storedPending, at: 8)
        statement.bind(record.pendingOrder.map(SQLValue.integer) ?? .null, at: 9)
        statement.bind(Int64(record.unresolved ? 1 : 0), at: 10)
        try statement.step()
    }

    /// Notes that `gid` waits for `awaited` to arrive.
    func wait(_ gid: GlobalID, for awaited: GlobalID) throws(StrataError) {
        let statement = try connection.cachedStatement(
            "INSERT INTO \(SyncTables.waiting) (awaited, gid) VALUES (?, ?) ON CONFLICT (awaited, gid) DO NOTHING")
        defer { statement.reset() }
        statement.bind(awaited.text, at: 1)
        statement.bind(gid.text, at: 2)
        try statement.step()
    }

    /// Whether any object waits for another.
    func someWaiting() throws(StrataError) -> Bool {
        let statement = try connection.cachedStatement("SELECT 1 FROM \(SyncTables.waiting) LIMIT 1")
        defer { statement.reset() }
        return try statement.step()
    }

    /// The objects that waited for `awaited`, no longer waiting.
    func takeWaiting(for awaited: GlobalID) throws(StrataError) -> [GlobalID] {
        let statement = try connection.cachedStatement("DELETE FROM \(SyncTables.waiting) WHERE awaited = ? RETURNING gid")
        defer { statement.reset() }
        statement.bind(awaited.text, at: 1)
        var waiting: [GlobalID] = []
        while try statement.step() {
            if let gid = GlobalID(statement.row.string(0)) { waiting.append(gid) }
        }
        return waiting
    }

    /// A state read from its stored form.
    func decode(_ stored: SQLValue) throws(StrataError) -> SyncedObject {
        guard case .blob(let bytes) = stored, let state = SyncedObject(storedBytes: bytes) else {
            throw .syncFailed("a stored sync state could not be read: \(stored.isNull ? "it is missing" : "its bytes are not a state")")
        }
        return state
    }

    private func read(_ row: DatabaseRow) throws(StrataError) -> SyncRecord {
        guard let gid = GlobalID(row.string(0)) else { throw .syncFailed("a sync record holds the malformed global ID '\(row.string(0))'") }
        var record = SyncRecord(gid: gid, entity: row.string(1), table: row.string(2), rowID: row.isNull(3) ? nil : row.int64(3))
        record.owner = row.isNull(4) ? nil : row.string(4)
        record.sequence = row.int64(5)
        record.state = try decode(row.value(6))
        record.pendingOrder = row.isNull(8) ? nil : row.int64(8)
        record.pending = row.isNull(7) ? (record.pendingOrder == nil ? nil : record.state) : try decode(row.value(7))
        record.unresolved = row.int64(9) != 0
        record.stored = record.indexedColumns
        return record
    }
}
