import Foundation
import Strata
import StrataPostgres

/// Opens the stack the server serves: the PostgreSQL database of `databaseURL` when there is
/// one, otherwise `PetServer.sqlite` in the store folder. A new database or file is created at the
/// model's current version; an older one is migrated.
enum PetStack {
    static func open(_ options: PetServerOptions) async throws -> (stack: DataStack, description: String) {
        let stack = DataStack(PetServer.schemaHistory)
        if let url = options.databaseURL {
            let store = try await stack.addStorage(PostgreSQLStore(url: url))
            return (stack, "PostgreSQL \(store)")
        }
        let file = options.storeFolder.appendingPathComponent("PetServer.sqlite")
        try await stack.addStorage(SQLiteStore(fileURL: file))
        return (stack, "SQLite \(file.path)")
    }
}
