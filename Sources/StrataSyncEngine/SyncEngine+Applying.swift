import Strata
import StrataSyncCore

/// Applying other nodes' changes: each is merged into the object's state by the rules, and the
/// object is made to hold what the merged state says, inside the caller's transaction, so that
/// the commit is an ordinary one (monitors, observers and delete rules see it).
extension SyncEngine {
    /// Merges `changes` (already checked: known entities, fitting values) and applies them in
    /// `transaction`. On a server, `account` becomes the owner of new objects of owned entities;
    /// a change of an object another account owns is refused before anything is written.
    /// Returns how many objects changed.
    @discardableResult
    package func apply(_ changes: [SyncChange], in transaction: BaseDataTransaction, account: String? = nil) throws -> Int {
        let connection = try transaction.syncConnection(configuration: configuration)
        let records = SyncRecords(connection: connection)
        // The records that change, in the order first met (an object may come more than once).
        var merged: [SyncRecord] = []
        var position: [GlobalID: Int] = [:]
        let stored = try records.records(changes.map(\.id))
        var latestReceived: SyncTimestamp?
        for change in changes {
            guard let entity = model.entities[change.entity] else { continue }
            let earlier = position[change.id]
            var record = earlier.map { merged[$0] } ?? stored[change.id]
                ?? SyncRecord(gid: change.id, entity: entity.name, table: entity.table, rowID: nil)
            var incoming = change.state
            if let owner = entity.owner, let account {
                if let current = record.owner, current != account { throw SyncRefusal.notFound(entity: entity.name, id: change.id) }
                if record.state.value(of: owner) != .text(account) || incoming.value(of: owner).map({ $0 != .text(account) }) == true {
                    incoming.set(owner, to: .text(account), at: stamp())
                }
            }
            if let latest = incoming.latestStamp, latestReceived.map({ latest > $0 }) ?? true {
                receive(latest)
                latestReceived = latest
            }
            let next = record.state.merged(with: incoming)
            if next == record.state, earlier == nil, !record.unresolved { continue }
            record.state = next
            if let owner = entity.owner { record.owner = Self.account(in: next, owner: owner) }
            if let earlier {
                merged[earlier] = record
            } else {
                position[change.id] = merged.count
                merged.append(record)
            }
        }
        guard !merged.isEmpty else { return 0 }
        var materializer = Materializer(engine: self, transaction: transaction, records: records)
        try materializer.run(merged)
        try save(materializer.finished, with: records)
        return merged.count
    }
}

/// Why a server refuses a change, before anything is written.
package enum SyncRefusal: Error, Equatable {
    /// The object belongs to another account; the client may not know it exists.
    case notFound(entity: String, id: GlobalID)
}

extension SyncedObject {
    /// The latest timestamp the state holds.
    var latestStamp: SyncTimestamp? {
        var latest = deleted
        func consider(_ stamp: SyncTimestamp?) {
            guard let stamp else { return }
            if latest.map({ stamp > $0 }) ?? true { latest = stamp }
        }
        for value in attributes.values { consider(value.stamp) }
        for members in sets.values {
            for stamps in members.values {
                consider(stamps.added)
                consider(stamps.removed)
            }
        }
        for order in orders.values { consider(order.stamp) }
        return latest
    }
}
