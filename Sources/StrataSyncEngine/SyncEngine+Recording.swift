import Strata
import StrataSyncCore

/// Recording a commit's changes: each changed synced object's values are compared with its state,
/// and what differs is stamped with this node's clock and merged into the state, in the commit's
/// own transaction.
extension SyncEngine {
    /// One synced object the commit touched, with its record.
    private struct Touched {
        let change: HookedChange
        let entity: SyncModel.Entity
        var record: SyncRecord
        let isNew: Bool
    }

    /// Records `changes`; returns whether any synced object changed.
    func record(_ changes: [HookedChange], on connection: any DatabaseConnection) throws(StrataError) -> Bool {
        let records = SyncRecords(connection: connection)
        var touched: [Touched] = []
        var newIDs: [String: [Int64: GlobalID]] = [:]
        var changed: [SyncRecord] = []
        var stampOfCommit: SyncTimestamp?
        func commitStamp() -> SyncTimestamp {
            if let stampOfCommit { return stampOfCommit }
            let made = stamp()
            stampOfCommit = made
            return made
        }
        for change in changes {
            // Objects that hold applied changes are recorded by the applying (their states say
            // what they hold); an object this commit created otherwise has no record yet.
            guard !change.appliedBySync, let entity = model.entities[change.entity] else { continue }
            let existing = change.kind == .inserted ? nil : try records.record(table: entity.table, rowID: change.rowID)
            if change.kind == .deleted {
                guard var record = existing, !record.state.isDeleted else { continue }
                note(record.state.delete(at: commitStamp()), in: &record)
                record.rowID = nil
                changed.append(record)
                continue
            }
            if let existing {
                touched.append(Touched(change: change, entity: entity, record: existing, isNew: false))
            } else {
                let gid = makeID()
                newIDs[entity.table, default: [:]][change.rowID] = gid
                touched.append(Touched(change: change, entity: entity, record: SyncRecord(gid: gid, entity: entity.name, table: entity.table,
                                                                                          rowID: change.rowID), isNew: true))
            }
        }
        let lookup = GlobalIDLookup(records: records, model: model, created: newIDs)
        for var item in touched {
            let delta = try difference(item, lookup: lookup, stamp: commitStamp)
            guard !delta.isEmpty || item.isNew else { continue }
            note(delta, in: &item.record)
            changed.append(item.record)
        }
        guard !changed.isEmpty else { return false }
        try save(changed, with: records)
        return true
    }

    /// Writes records; on a server each gets the next sequence number of the log, in order.
    func save(_ changed: [SyncRecord], with records: SyncRecords) throws(StrataError) {
        guard role == .server else { return try records.save(changed) }
        var sequence = try SyncMeta.increment("sequence", by: Int64(changed.count), on: records.connection) - Int64(changed.count)
        try records.save(changed.map { record in
            var numbered = record
            sequence += 1
            numbered.sequence = sequence
            return numbered
        })
    }

    /// Merges a change into a record's state, and keeps it as this node's role does: a device's
    /// waits to be pushed.
    private func note(_ delta: SyncedObject, in record: inout SyncRecord) {
        record.state.absorb(delta)
        switch role {
        case .client:
            if record.pending == nil { record.pending = delta } else { record.pending?.absorb(delta) }
            if record.pendingOrder == nil { record.pendingOrder = Self.pendingOrder(latestStamp) }
        case .server:
            break
        }
        if let owner = model.entities[record.entity]?.owner {
            record.owner = Self.account(in: record.state, owner: owner)
        }
    }

    /// The account an object of an owned entity belongs to: its owner attribute's text, or the
    /// empty string (no account's) while it has none.
    static func account(in state: SyncedObject, owner: String) -> String {
        if case .text(let account)? = state.value(of: owner) { return account }
        return ""
    }

    /// An order for pending changes that grows with the clock.
    static func pendingOrder(_ stamp: SyncTimestamp) -> Int64 {
        stamp.milliseconds << 16 | Int64(min(stamp.counter, 0xFFFF))
    }

    /// What differs between an object's values and its state, stamped and merged into the state.
    private func difference(_ item: Touched, lookup: GlobalIDLookup, stamp: () -> SyncTimestamp) throws(StrataError) -> SyncedObject {
        var state = item.record.state
        var delta = SyncedObject()
        let changedColumns: Set<Int>?
        if case .updated(let columns) = item.change.kind, !item.isNew { changedColumns = Set(columns) } else { changedColumns = nil }
        let values = item.change.values
        for attribute in item.entity.attributes where attribute.ordinal < values.count {
            let known = state.attributes[attribute.name] != nil || state.counters[attribute.name] != nil
            // An attribute an object's state lacks (one its version did not have, or one no
            // change set) is recorded when the commit changed it, never as a side effect of
            // another change: a device that just updated its app must not push the new
            // attribute's default over what other devices set.
            guard changedColumns?.contains(attribute.ordinal) ?? true else { continue }
            let value = SyncValue(values[attribute.ordinal])
            if attribute.isCounter {
                guard case .integer(let now) = value else { continue }
                let before = state.counters[attribute.name]?.value ?? 0
                if now != before || !known { delta.absorb(state.add(now - before, to: attribute.name, by: node)) }
            } else if state.attributes[attribute.name]?.value != value || !known {
                write(attribute.name, value, stamp(), into: &state, and: &delta)
            }
        }
        for toOne in item.entity.toOne where toOne.ordinal < values.count && (changedColumns?.contains(toOne.ordinal) ?? true) {
            let target: SyncValue
            if case .integer(let rowID) = values[toOne.ordinal], let gid = try lookup.gid(of: toOne.destination, rowID: rowID) {
                target = .text(gid.text)
            } else {
                target = .null
            }
            let current = state.attributes[toOne.name]?.value
            if current == target { continue }
            // A state naming an object this node lacks shows as nil: that is no change.
            if case .null = target, case .text(let awaited)? = current, let gid = GlobalID(awaited), try lookup.isMissing(gid) { continue }
            write(toOne.name, target, stamp(), into: &state, and: &delta)
        }
        for toMany in item.entity.toMany where item.isNew || item.change.toMany.contains(toMany.name) {
            let members = try lookup.members(item.record.rowID ?? item.change.rowID, of: toMany)
            switch toMany.kind {
            case .set:
                let now = Set(members.map(\.text))
                let before = Set(state.members(of: toMany.name))
                for added in now.subtracting(before).sorted() {
                    delta.absorb(state.insert(added, into: toMany.name, at: stamp()))
                }
                for removed in before.subtracting(now).sorted() {
                    guard let gid = GlobalID(removed), !(try lookup.isMissing(gid)) else { continue }
                    delta.absorb(state.remove(removed, from: toMany.name, at: stamp()))
                }
            case .order, .reorder:
                let now = members.map(\.text)
                var expected: [String] = []
                for member in state.members(of: toMany.name) {
                    guard let gid = GlobalID(member), !(try lookup.isMissing(gid)) else { continue }
                    expected.append(member)
                }
                if toMany.kind == .reorder { expected = Self.reordered(now, by: state.members(of: toMany.name)) }
                if now != expected || (state.orders[toMany.name] == nil && !now.isEmpty) {
                    delta.absorb(state.order(toMany.name, as: now, at: stamp()))
                }
            }
        }
        return delta
    }

    /// Sets an attribute in a state and in the delta being built, at a stamp this node's clock
    /// just gave (later than any the state holds, so it wins without comparing).
    private func write(_ name: String, _ value: SyncValue, _ stamp: SyncTimestamp, into state: inout SyncedObject, and delta: inout SyncedObject) {
        let stamped = StampedValue(value, at: stamp)
        state.setLatest(name, to: stamped)
        delta.setLatest(name, to: stamped)
    }

    /// `members` in the order `order` gives them; those it does not name follow, as they were.
    static func reordered<Member>(_ members: [Member], by order: [String], key: (Member) -> String) -> [Member] {
        let position = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return members.enumerated().sorted { a, b in
            let left = position[key(a.element)] ?? (order.count + a.offset)
            let right = position[key(b.element)] ?? (order.count + b.offset)
            return left < right
        }.map(\.element)
    }

    static func reordered(_ members: [String], by order: [String]) -> [String] {
        reordered(members, by: order, key: { $0 })
    }
}

/// Global IDs of rows, inside one commit: the objects the commit creates first, then the records.
struct GlobalIDLookup {
    let records: SyncRecords
    let model: SyncModel
    /// Objects created by the commit, by table and row id.
    let created: [String: [Int64: GlobalID]]

    /// The global ID of the object of `entity`'s table stored with `rowID`.
    func gid(of entity: String, rowID: Int64) throws(StrataError) -> GlobalID? {
        guard let table = model.entities[entity]?.table else { return nil }
        if let gid = created[table]?[rowID] { return gid }
        return try records.gid(table: table, rowID: rowID)
    }

    /// Whether this node has no live row for `gid` (not arrived yet, or deleted).
    func isMissing(_ gid: GlobalID) throws(StrataError) -> Bool {
        try records.row(of: gid) == nil && !created.values.contains { $0.values.contains(gid) }
    }

    /// The global IDs of the members of a to-many relationship of the object stored with `rowID`.
    func members(_ rowID: Int64, of toMany: SyncModel.Entity.ToMany) throws(StrataError) -> [GlobalID] {
        let statement = try records.connection.cachedStatement(toMany.membersSQL)
        statement.bind(rowID, at: 1)
        var rowIDs: [Int64] = []
        do {
            defer { statement.reset() }
            while try statement.step() { rowIDs.append(statement.row.int64(0)) }
        }
        var gids: [GlobalID] = []
        for member in rowIDs {
            if let gid = try gid(of: toMany.destination, rowID: member) { gids.append(gid) }
        }
        return gids
    }
}
