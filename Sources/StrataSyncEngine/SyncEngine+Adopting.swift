import Strata
import StrataSyncCore

/// Objects stored before sync began on a storage (an app's existing store, a server's existing
/// database) are recorded when it begins, as if created then: a device pushes them, a server
/// serves them.
extension SyncEngine {
    /// How many rows are read per transaction while adopting.
    static let adoptionBatch = 1_000

    /// Records every object of a synced entity that has no record yet, a batch per transaction.
    func adoptUnrecordedObjects() async throws {
        let tables = Dictionary(grouping: model.entities.values, by: \.table)
        for (table, entities) in tables.sorted(by: { $0.key < $1.key }) {
            guard let root = entities.first(where: { entity in !entities.contains { $0.name == entity.shape.description.parent } }) else { continue }
            while try await adoptBatch(table: table, root: root.name) > 0 {}
        }
    }

    /// Records up to ``adoptionBatch`` unrecorded objects of a table; returns how many.
    private func adoptBatch(table: String, root: String) async throws -> Int {
        let configuration = self.configuration
        return try await stack.perform { transaction in
            let connection = try transaction.syncConnection(configuration: configuration)
            let id = SQLIdentifier.quote(StoreLayout.idColumn)
            let statement = try connection.prepare(
                "SELECT \(id) FROM \(SQLIdentifier.quote(table)) WHERE \(id) NOT IN (SELECT row_id FROM \(SyncTables.objects) "
                + "WHERE table_name = ? AND row_id IS NOT NULL) ORDER BY \(id) LIMIT \(Self.adoptionBatch)")
            statement.bind(table, at: 1)
            var rowIDs: [Int64] = []
            while try statement.step() { rowIDs.append(statement.row.int64(0)) }
            var changes: [HookedChange] = []
            for rowID in rowIDs {
                guard let object = try transaction.syncObject(entity: root, rowID: rowID), let entity = self.model.entities[object.syncEntityName] else { continue }
                changes.append(HookedChange(entity: entity.name, rowID: rowID, kind: .inserted, values: transaction.syncValues(of: object),
                                            toMany: Set(entity.toMany.map(\.name))))
            }
            _ = try self.record(changes, on: connection)
            return changes.count
        }
    }
}
