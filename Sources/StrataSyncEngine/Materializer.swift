import Strata
import StrataSyncCore

/// Makes objects hold what their merged states say, inside one transaction: first every object is
/// created, deleted or given its attributes, then relationships are set, so that objects of the same
/// batch can name each other. A relationship naming an object this node lacks is left out, and
/// the record waits for that object: when it arrives, the relationship is set.
struct Materializer {
    let engine: SyncEngine
    let transaction: BaseDataTransaction
    let records: SyncRecords
    /// The records, as they end, in the order they were first met.
    private(set) var finished: [SyncRecord] = []
    private var index: [GlobalID: Int] = [:]
    /// Objects whose ordered one-to-many relationships are put in their state's order at the end:
    /// those of the batch, and the destinations of the to-ones it set.
    private var reorderTargets: Set<GlobalID> = []
    /// The global IDs of the batch's rows, by table and row id (their records are saved at the end).
    private var rows: [String: [Int64: GlobalID]] = [:]
    /// Whether any object waits for another: read once, then kept true as the batch adds waits.
    /// Most batches meet none, and looking for them object by object is a statement each.
    private var someWait = false

    init(engine: SyncEngine, transaction: BaseDataTransaction, records: SyncRecords) {
        self.engine = engine
        self.transaction = transaction
        self.records = records
    }

    /// Applies `records`' states, then those of records that waited for one of them.
    mutating func run(_ batch: [SyncRecord]) throws {
        var objects: [GlobalID: StrataObject] = [:]
        objects.reserveCapacity(batch.count)
        index.reserveCapacity(batch.count)
        finished.reserveCapacity(batch.count)
        // The second pass sets relationships and wakes what waited: an object of an entity
        // without relationships, when nothing waited before the batch, has no part in it (waits
        // the batch adds are for objects it lacks).
        let waitedBefore = try records.someWaiting()
        someWait = waitedBefore
        var live: [GlobalID] = []
        for var record in batch {
            if let object = try settle(&record) {
                objects[record.gid] = object
                if waitedBefore || engine.model.entities[record.entity]?.relates == true { live.append(record.gid) }
            }
            keep(record)
        }
        var pending = live
        var visited = Set(live)
        var position = 0
        while position < pending.count {
            let gid = pending[position]
            position += 1
            guard var record = finishedRecord(gid) else { continue }
            let object: StrataObject?
            if let known = objects[gid] {
                object = known
            } else if let rowID = record.rowID {
                object = try transaction.syncObject(entity: record.entity, rowID: rowID)
            } else {
                object = nil
            }
            guard let object else { continue }
            try relate(object, &record, objects: &objects)
            keep(record)
            for waiting in try takeWaiting(for: gid) where visited.insert(waiting).inserted {
                if finishedRecord(waiting) == nil, let stored = try records.record(waiting) { keep(stored) }
                pending.append(waiting)
            }
        }
        // Orders last: the members their to-ones gave are all in place now.
        for gid in reorderTargets.sorted() {
            guard let record = try finishedRecord(gid) ?? records.record(gid), let rowID = record.rowID,
                  let object = try objects[gid] ?? transaction.syncObject(entity: record.entity, rowID: rowID) else { continue }
            try reorder(object, record)
        }
    }

    /// The objects that waited for `gid`, no longer waiting.
    private func takeWaiting(for gid: GlobalID) throws -> [GlobalID] {
        someWait ? try records.takeWaiting(for: gid) : []
    }

    private mutating func keep(_ record: SyncRecord) {
        if engine.model.reorders, let rowID = record.rowID { rows[record.table, default: [:]][rowID] = record.gid }
        if let position = index[record.gid] {
            finished[position] = record
        } else {
            index[record.gid] = finished.count
            finished.append(record)
        }
    }

    private func finishedRecord(_ gid: GlobalID) -> SyncRecord? {
        index[gid].map { finished[$0] }
    }

    /// Creates, deletes or updates the object of a record; returns it when it is live.
    private func settle(_ record: inout SyncRecord) throws -> StrataObject? {
        guard let entity = engine.model.entities[record.entity] else { return nil }
        let existing = try record.rowID.flatMap { rowID throws(StrataError) in try transaction.syncObject(entity: record.entity, rowID: rowID) }
        if record.state.isDeleted {
            if let existing { transaction.delete(existing) }
            record.rowID = nil
            return nil
        }
        let object: StrataObject
        if let existing {
            object = existing
        } else {
            guard entity.isConcrete else { return nil }
            object = try transaction.syncCreate(entity: record.entity, configuration: engine.configuration)
            record.rowID = object.syncRowID
        }
        var values: [(ordinal: Int, value: SQLValue)] = []
        values.reserveCapacity(entity.attributes.count)
        for attribute in entity.attributes {
            if attribute.isCounter {
                guard let counter = record.state.counters[attribute.name] else { continue }
                values.append((attribute.ordinal, .integer(counter.value)))
            } else if let value = record.state.attributes[attribute.name]?.value {
                values.append((attribute.ordinal, value.stored))
            }
        }
        transaction.syncSet(object, values: values)
        return object
    }

    /// Puts the members of an object's ordered one-to-many relationships in its state's order
    /// (members the order does not name follow, as they were).
    private func reorder(_ object: StrataObject, _ record: SyncRecord) throws {
        guard let entity = engine.model.entities[record.entity] else { return }
        for toMany in entity.toMany where toMany.kind == .reorder {
            guard let order = record.state.orders[toMany.name] else { continue }
            let current = transaction.syncMembers(of: object, relationship: toMany.index)
            var keys: [ObjectIdentifier: String] = [:]
            for member in current {
                let table = engine.model.entities[member.syncEntityName]?.table ?? ""
                if let gid = try rows[table]?[member.syncRowID] ?? records.gid(table: table, rowID: member.syncRowID) {
                    keys[ObjectIdentifier(member)] = gid.text
                }
            }
            let sorted = SyncEngine.reordered(current, by: order.members) { keys[ObjectIdentifier($0)] ?? "" }
            transaction.syncSetToMany(object, relationship: toMany.index, to: sorted)
        }
    }

    /// Sets an object's relationships from its record's state.
    private mutating func relate(_ object: StrataObject, _ record: inout SyncRecord, objects: inout [GlobalID: StrataObject]) throws {
        guard let entity = engine.model.entities[record.entity] else { return }
        var unresolved = false
        for toOne in entity.toOne {
            guard let value = record.state.attributes[toOne.name]?.value else { continue }
            guard case .text(let text) = value, let gid = GlobalID(text) else {
                transaction.syncSetToOne(object, relationship: toOne.index, to: nil)
                continue
            }
            let destination = try resolve(gid, objects: &objects)
            if destination == nil, try awaits(gid, record) { unresolved = true }
            if destination != nil, engine.model.entities[toOne.destination]?.toMany.contains(where: { $0.kind == .reorder }) == true {
                reorderTargets.insert(gid)
            }
            transaction.syncSetToOne(object, relationship: toOne.index, to: destination)
        }
        for toMany in entity.toMany {
            switch toMany.kind {
            case .set, .order:
                guard record.state.sets[toMany.name] != nil || record.state.orders[toMany.name] != nil else { continue }
                var members: [StrataObject] = []
                for member in record.state.members(of: toMany.name) {
                    guard let gid = GlobalID(member) else { continue }
                    if let destination = try resolve(gid, objects: &objects) {
                        members.append(destination)
                    } else if try awaits(gid, record) {
                        unresolved = true
                    }
                }
                transaction.syncSetToMany(object, relationship: toMany.index, to: members)
            case .reorder:
                reorderTargets.insert(record.gid)
            }
        }
        record.unresolved = unresolved
    }

    /// The live object with a global ID, if this node has it.
    private func resolve(_ gid: GlobalID, objects: inout [GlobalID: StrataObject]) throws -> StrataObject? {
        if let known = objects[gid] { return known }
        guard let row = try records.row(of: gid), let object = try transaction.syncObject(entity: row.entity, rowID: row.rowID) else { return nil }
        objects[gid] = object
        return object
    }

    /// Notes that a record waits for `gid`, unless `gid` is known and deleted; returns whether it waits.
    private mutating func awaits(_ gid: GlobalID, _ record: SyncRecord) throws -> Bool {
        if let known = try records.record(gid), known.state.isDeleted { return false }
        try records.wait(record.gid, for: gid)
        someWait = true
        return true
    }
}
