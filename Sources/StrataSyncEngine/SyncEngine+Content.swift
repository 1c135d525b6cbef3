import Foundation
import Strata
import StrataSyncCore

/// The content's epoch, and removing a storage's synced objects.
extension SyncEngine {
    /// The epoch stored in the storage, made when there is none.
    package func epoch(on connection: any DatabaseConnection) throws(StrataError) -> String {
        if let epoch = try SyncMeta.value("epoch", on: connection) { return epoch }
        let epoch = UUID().uuidString.lowercased()
        try SyncMeta.set("epoch", to: epoch, on: connection)
        return epoch
    }

    /// Deletes every object of the synced entities and empties the sync tables, in one
    /// transaction that records nothing; a server starts a new epoch. Monitors and observers see
    /// the objects go as in any commit.
    package func removeContent() async throws {
        let tables = Set(model.entities.values.map(\.table)).sorted()
        let configuration = self.configuration
        suspended.store(true, ordering: .sequentiallyConsistent)
        defer { suspended.store(false, ordering: .sequentiallyConsistent) }
        try await stack.perform { transaction in
            let connection = try transaction.syncConnection(configuration: configuration)
            for table in tables {
                // A table is named after the root entity of the objects it holds.
                let statement = try connection.prepare("SELECT " + SQLIdentifier.quote(StoreLayout.idColumn) + " FROM " + SQLIdentifier.quote(table))
                var rowIDs: [Int64] = []
                while try statement.step() { rowIDs.append(statement.row.int64(0)) }
                for rowID in rowIDs {
                    if let object = try transaction.syncObject(entity: table, rowID: rowID) { transaction.delete(object) }
                }
            }
            for sql in SyncTables.clear { try connection.execute(sql) }
            if self.role == .server { try SyncMeta.set("epoch", to: UUID().uuidString.lowercased(), on: connection) }
        }
    }
}
