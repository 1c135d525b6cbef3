import Foundation
import Strata
import StrataPostgres

/// Opens the stack the server serves: the PostgreSQL database of `databaseURL` when there is
/// one, otherwise `PetServer.sqlite` in the store folder. A new database or file is created at the
/// model's current version; an older one is migrated. The stack reports each transaction and
/// read to `instrumentation`.
enum PetStack {
    static func open(_ options: PetServerOptions, instrumentation: any StackInstrumentation) async throws
        -> (stack: DataStack, description: String) {
        // Other server processes' commits reach the live lists within 25 ms on a shared SQLite
        // file (its data version is checked that often, without a round trip), instead of the
        // default 100 ms; on PostgreSQL their notifications wake the stack at once.
        let stack = DataStack(PetServer.schemaHistory, externalCommitCheckInterval: .milliseconds(25), instrumentation: instrumentation)
        if let url = options.databaseURL {
            let store = try await stack.addStorage(PostgreSQLStore(url: url))
            return (stack, "PostgreSQL \(store)")
        }
        let file = options.storeFolder.appendingPathComponent("PetServer.sqlite")
        try await stack.addStorage(SQLiteStore(fileURL: file))
        return (stack, "SQLite \(file.path)")
    }
}
