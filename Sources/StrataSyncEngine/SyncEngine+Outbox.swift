import Foundation
import Strata
import StrataSyncCore

/// A device's outbox: changes waiting to be pushed become numbered batches, each written before
/// it is sent, so that a push repeated after a crash sends the same changes under the same number
/// (which the server applies once), and changes made meanwhile wait for the next batch.
extension SyncEngine {
    /// The batch to push next: the oldest one written and not acknowledged, else a new one of up
    /// to `limit` waiting changes, oldest first; nil when nothing waits.
    package func nextBatch(limit: Int) async throws -> (number: Int64, changes: [SyncChange])? {
        let configuration = self.configuration
        return try await stack.perform { transaction -> (Int64, [SyncChange])? in
            let connection = try transaction.syncConnection(configuration: configuration)
            let records = SyncRecords(connection: connection)
            if let written = try Self.writtenBatch(on: connection, records: records) { return written }
            let waiting = try connection.cachedStatement(
                "SELECT gid, entity, coalesce(pending, state) FROM \(SyncTables.objects) WHERE pending_order IS NOT NULL ORDER BY pending_order, gid LIMIT ?")
            waiting.bind(Int64(limit), at: 1)
            var changes: [SyncChange] = []
            do {
                defer { waiting.reset() }
                while try waiting.step() {
                    guard let gid = GlobalID(waiting.row.string(0)) else { continue }
                    changes.append(SyncChange(entity: waiting.row.string(1), id: gid, state: try records.decode(waiting.row.value(2))))
                }
            }
            guard !changes.isEmpty else { return nil }
            let number = try SyncMeta.increment("batch", by: 1, on: connection)
            let insert = try connection.cachedStatement(
                "INSERT INTO \(SyncTables.outbox) (batch, position, entity, gid, change) VALUES (?, ?, ?, ?, ?)")
            let clear = try connection.cachedStatement("UPDATE \(SyncTables.objects) SET pending = NULL, pending_order = NULL WHERE gid = ?")
            for (position, change) in changes.enumerated() {
                insert.reset()
                insert.bind(number, at: 1)
                insert.bind(Int64(position), at: 2)
                insert.bind(change.entity, at: 3)
                insert.bind(change.id.text, at: 4)
                insert.bind(.blob(change.state.storedBytes), at: 5)
                try insert.step()
                clear.reset()
                clear.bind(change.id.text, at: 1)
                try clear.step()
            }
            insert.reset()
            clear.reset()
            return (number, changes)
        }
    }

    /// The oldest batch written and not acknowledged.
    private static func writtenBatch(on connection: any DatabaseConnection, records: SyncRecords) throws -> (Int64, [SyncChange])? {
        let oldest = try connection.cachedStatement("SELECT min(batch) FROM \(SyncTables.outbox)")
        let number: Int64
        do {
            defer { oldest.reset() }
            guard try oldest.step(), !oldest.row.isNull(0) else { return nil }
            number = oldest.row.int64(0)
        }
        let rows = try connection.cachedStatement("SELECT entity, gid, change FROM \(SyncTables.outbox) WHERE batch = ? ORDER BY position")
        defer { rows.reset() }
        rows.bind(number, at: 1)
        var changes: [SyncChange] = []
        while try rows.step() {
            guard let gid = GlobalID(rows.row.string(1)) else { continue }
            changes.append(SyncChange(entity: rows.row.string(0), id: gid, state: try records.decode(rows.row.value(2))))
        }
        return (number, changes)
    }

    /// Forgets the batches up to `batch`: the server applied them.
    package func acknowledge(through batch: Int64) async throws {
        let configuration = self.configuration
        try await stack.perform { transaction in
            let connection = try transaction.syncConnection(configuration: configuration)
            let statement = try connection.cachedStatement("DELETE FROM \(SyncTables.outbox) WHERE batch <= ?")
            defer { statement.reset() }
            statement.bind(batch, at: 1)
            try statement.step()
        }
    }

    /// Puts the objects of a written batch the server refused back with the changes waiting to
    /// be pushed, each as its whole state now (which holds every change since), and forgets the
    /// batch: the next batch carries what the objects hold now.
    package func rebuildBatch(_ batch: Int64) async throws {
        let configuration = self.configuration
        try await stack.perform { transaction in
            let connection = try transaction.syncConnection(configuration: configuration)
            let records = SyncRecords(connection: connection)
            let gids = try connection.cachedStatement("SELECT gid FROM \(SyncTables.outbox) WHERE batch = ? ORDER BY position")
            gids.bind(batch, at: 1)
            var members: [GlobalID] = []
            do {
                defer { gids.reset() }
                while try gids.step() { if let gid = GlobalID(gids.row.string(0)) { members.append(gid) } }
            }
            for gid in members {
                guard var record = try records.record(gid) else { continue }
                record.pending = record.state
                if record.pendingOrder == nil { record.pendingOrder = Self.pendingOrder(self.latestStamp) }
                try records.save(record)
            }
            let forget = try connection.cachedStatement("DELETE FROM \(SyncTables.outbox) WHERE batch = ?")
            defer { forget.reset() }
            forget.bind(batch, at: 1)
            try forget.step()
        }
    }

    /// How many objects have changes not yet pushed (waiting, or in a batch not acknowledged).
    package func unpushedCount() async throws -> Int {
        let configuration = self.configuration
        return try await stack.perform { transaction in
            let connection = try transaction.syncConnection(configuration: configuration)
            let statement = try connection.cachedStatement(
                "SELECT (SELECT count(*) FROM \(SyncTables.objects) WHERE pending_order IS NOT NULL) + (SELECT count(*) FROM \(SyncTables.outbox))")
            defer { statement.reset() }
            return try statement.step() ? Int(statement.row.int64(0)) : 0
        }
    }

    /// Applies a pulled page and moves the checkpoint (the setting `checkpointKey`) past it, in
    /// one transaction, with the other `settings` given (nil removes one); returns how many
    /// objects changed.
    package func applyPage(_ page: PullResponse, checkpointKey: String = "checkpoint", settings: [String: String?] = [:]) async throws -> Int {
        receive(page.clock)
        let changes = page.entries.map(\.change)
        let configuration = self.configuration
        return try await stack.perform { transaction in
            let applied = try self.apply(changes, in: transaction)
            let connection = try transaction.syncConnection(configuration: configuration)
            try SyncMeta.set(checkpointKey, to: String(page.checkpoint), on: connection)
            for (key, value) in settings {
                if let value { try SyncMeta.set(key, to: value, on: connection) } else { try SyncMeta.remove(key, on: connection) }
            }
            return applied
        }
    }

    /// Runs `body` with the storage's sync settings (`strata_sync_meta`), in a transaction.
    package func withMeta<T: Sendable>(_ body: @escaping @Sendable (SyncMetaAccess) throws -> T) async throws -> T {
        let configuration = self.configuration
        return try await stack.perform { transaction in
            try body(SyncMetaAccess(connection: try transaction.syncConnection(configuration: configuration)))
        }
    }
}

/// The storage's sync settings, inside a transaction.
package struct SyncMetaAccess {
    let connection: any DatabaseConnection

    /// The value stored under `key`.
    package func value(_ key: String) throws(StrataError) -> String? {
        try SyncMeta.value(key, on: connection)
    }

    /// Stores `value` under `key`.
    package func set(_ key: String, to value: String) throws(StrataError) {
        try SyncMeta.set(key, to: value, on: connection)
    }

    /// Removes the value stored under `key`.
    package func remove(_ key: String) throws(StrataError) {
        try SyncMeta.remove(key, on: connection)
    }
}
