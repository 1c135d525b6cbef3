import Foundation
import Strata
import StrataSyncEngine

/// The content's epoch, and removing the content.
extension SyncServer {
    /// The content's epoch, made when the server first serves it and again when it is removed:
    /// a device that knew another one erases its copy and starts again.
    func epoch() async throws -> String {
        let engine = self.engine
        return try await stack.perform { transaction in
            let connection = try transaction.syncConnection(configuration: engine.configuration)
            return try engine.epoch(on: connection)
        }
    }

    /// Removes the content: deletes every object of the synced entities and forgets their log,
    /// then starts a new epoch. Each device that syncs next erases its copy (its observers are
    /// told the content was removed) and starts again with what the server holds then.
    public func removeContent() async throws {
        try await engine.removeContent()
        signal.ring()
    }
}
