import Strata
import StrataSyncCore

/// After the app's model moved to a newer version (the store migrated as usual), the sync tables
/// follow it: every record's state, its changes not yet pushed, and the outbox's written batch
/// get the new version's names and values, in one transaction, so nothing is lost and nothing is
/// downloaded again. A device then asks the server once for what its older version could not
/// see (see ``catchUpVersion``).
extension SyncEngine {
    /// The key under which the tables record the model version their states are in.
    static let versionKey = "version"
    /// On a device: the older version whose unseen properties it still has to pull.
    package static let catchUpKey = "catch-up-from"
    /// On a device: how far through the log that pull has come.
    package static let catchUpCheckpointKey = "catch-up-checkpoint"

    /// Brings the sync tables to the stack's current version, when they are at an older one.
    func upgradeRecords() async throws {
        let history = stack.schemaHistory
        let current = history.currentVersion.name
        let configuration = self.configuration
        let role = self.role
        try await stack.perform { transaction in
            let connection = try transaction.syncConnection(configuration: configuration)
            let stored = try SyncMeta.value(Self.versionKey, on: connection)
            guard let stored, stored != current else {
                if stored == nil { try SyncMeta.set(Self.versionKey, to: current, on: connection) }
                return
            }
            let translation: VersionTranslation
            do {
                guard let planned = try VersionTranslation.plan(history: history, clientVersion: stored, clientLock: nil) else { return }
                translation = planned
            } catch let refusal as VersionRefusal {
                throw StrataError.syncFailed("the store's sync records are at \(stored) and cannot follow the app to \(current): \(refusal.reason)")
            }
            try self.translate(on: connection, with: translation)
            try SyncMeta.set(Self.versionKey, to: current, on: connection)
            // Only when the old version could not see everything is there anything to fetch.
            if role == .client, translation.hidesSomething { try SyncMeta.set(Self.catchUpKey, to: stored, on: connection) }
        }
    }

    /// Rewrites every record and the outbox in the newer version's terms.
    private func translate(on connection: any DatabaseConnection, with translation: VersionTranslation) throws {
        let records = SyncRecords(connection: connection)
        var after = ""
        while case let batch = try records.records(after: after, limit: 1_000), let last = batch.last {
            after = last.gid.text
            var translated: [SyncRecord] = []
            for var record in batch {
                // The state and the unpushed changes both go up from the older entity's terms.
                let older = record.entity
                guard let state = translation.up(SyncChange(entity: older, id: record.gid, state: record.state)),
                      let entity = model.entities[state.entity] else {
                    try records.remove(record.gid)   // the entity is gone, with its rows
                    continue
                }
                record.entity = state.entity
                record.table = entity.table
                record.state = state.state
                record.pending = record.pending.flatMap { translation.up(SyncChange(entity: older, id: record.gid, state: $0))?.state }
                record.stored = nil   // written whole: its entity and table may have changed
                translated.append(record)
            }
            try records.save(translated)
        }
        let read = try connection.prepare("SELECT batch, position, entity, gid, change FROM \(SyncTables.outbox)")
        var rewritten: [(Int64, Int64, SyncChange?)] = []
        while try read.step() {
            guard let gid = GlobalID(read.row.string(3)) else { continue }
            let change = SyncChange(entity: read.row.string(2), id: gid, state: try records.decode(read.row.value(4)))
            rewritten.append((read.row.int64(0), read.row.int64(1), translation.up(change)))
        }
        let update = try connection.cachedStatement("UPDATE \(SyncTables.outbox) SET entity = ?, change = ? WHERE batch = ? AND position = ?")
        let delete = try connection.cachedStatement("DELETE FROM \(SyncTables.outbox) WHERE batch = ? AND position = ?")
        for (batch, position, change) in rewritten {
            let statement = change == nil ? delete : update
            statement.reset()
            var index: Int32 = 1
            if let change {
                statement.bind(change.entity, at: 1)
                statement.bind(.blob(change.state.storedBytes), at: 2)
                index = 3
            }
            statement.bind(batch, at: index)
            statement.bind(position, at: index + 1)
            try statement.step()
        }
        update.reset()
        delete.reset()
    }
}
