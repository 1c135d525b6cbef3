import Strata
import StrataSyncCore
import StrataSyncEngine

/// Pushes: a client's numbered batch, checked whole, then applied once in one transaction.
extension SyncServer {
    func push(_ request: PushRequest, account: String) async throws -> SyncHTTPResponse {
        do { try request.validate() } catch { throw Refusal(status: 400, message: error.description) }
        var request = request
        if let translation = try checkModel(request.model, request.version, lock: request.lock) {
            // The server's names and values; what the server's version no longer has is left out.
            request.changes = request.changes.compactMap(translation.up)
        }
        for (position, change) in request.changes.enumerated() {
            if let problem = engine.problem(with: change) {
                throw Refusal(status: 422, message: "change \(position) (\(change.id)): \(problem); nothing of the batch was applied")
            }
        }
        let engine = self.engine
        let applied: Int64
        do {
            applied = try await apply(request, account: account)
        } catch let error as StrataError {
            switch error {
            case .uniquenessViolation, .deleteDenied, .relationshipCount, .missingValue:
                // The batch breaks a rule of the model here: the device rebuilds it from its
                // objects as they are now, and sends that.
                throw Refusal(status: 409, message: "\(error); nothing of the batch was applied")
            default:
                throw error
            }
        }
        return .json(PushResponse(applied: applied, clock: engine.latestStamp, epoch: try await epoch(), account: account))
    }

    /// Applies a push in one transaction; returns the last batch applied for its client.
    private func apply(_ request: PushRequest, account: String) async throws -> Int64 {
        let engine = self.engine
        return try await stack.perform { transaction in
            let connection = try transaction.syncConnection(configuration: engine.configuration)
            let client = try SyncClients.find(request.client, on: connection)
            if let client, client.account != account {
                throw Refusal(status: 403, message: "the client '\(request.client)' syncs for another account; a client ID belongs to one account")
            }
            if let client, request.batch <= client.batch { return client.batch }
            do {
                try engine.apply(request.changes, in: transaction, account: account)
            } catch SyncRefusal.notFound(let entity, let id) {
                throw Refusal(status: 404, message: "no \(entity) with the id \(id) is yours to change; nothing of the batch was applied")
            }
            try SyncClients.save(request.client, account: account, batch: request.batch, on: connection)
            return request.batch
        }
    }
}

/// Reading and writing `strata_sync_clients`.
enum SyncClients {
    struct Client {
        let account: String
        let batch: Int64
    }

    static func find(_ client: String, on connection: any DatabaseConnection) throws(StrataError) -> Client? {
        let statement = try connection.cachedStatement("SELECT account, batch FROM strata_sync_clients WHERE client = ?")
        defer { statement.reset() }
        statement.bind(client, at: 1)
        guard try statement.step() else { return nil }
        return Client(account: statement.row.string(0), batch: statement.row.int64(1))
    }

    static func save(_ client: String, account: String, batch: Int64, on connection: any DatabaseConnection) throws(StrataError) {
        let statement = try connection.cachedStatement(
            "INSERT INTO strata_sync_clients (client, account, batch) VALUES (?, ?, ?) ON CONFLICT (client) DO UPDATE SET batch = excluded.batch")
        defer { statement.reset() }
        statement.bind(client, at: 1)
        statement.bind(account, at: 2)
        statement.bind(batch, at: 3)
        try statement.step()
    }
}
