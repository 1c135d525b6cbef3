import Foundation
import Strata
import StrataSyncCore
import StrataSyncEngine

/// Pulls: a page of the objects changed after the client's checkpoint, in log order, each with its
/// whole state, so an object changed many times travels once. An account sees the objects it
/// owns and those of entities without an owner.
extension SyncServer {
    func pull(_ request: PullRequest, account: String) async throws -> SyncHTTPResponse {
        do { try request.validate() } catch { throw Refusal(status: 400, message: error.description) }
        let translation = try checkModel(request.model, request.version, lock: request.lock)
        let generation = signal.generation
        let counting = request.count ?? true
        var page = try await readPage(after: request.after, limit: request.limit, account: account, counting: counting)
        if page.entries.isEmpty, let wait = request.wait, wait > 0 {
            await signal.wait(since: generation, timeout: .milliseconds(wait))
            page = try await readPage(after: request.after, limit: request.limit, account: account, counting: counting)
        }
        if let since = request.since {
            page.entries = try unseen(page.entries, since: since, model: request.model)
        }
        if let translation {
            // An older version's names and values; what it lacks is left out (the checkpoint
            // still passes it).
            page.entries = page.entries.compactMap { entry in
                translation.down(entry.change).map { PullResponse.Entry(sequence: entry.sequence, change: $0) }
            }
        }
        return SyncHTTPResponse(status: 200, body: page.jsonBytes())
    }

    /// What of `entries` the version `since` could not see: whole objects of entities it lacks,
    /// and of the others only the properties it lacks (objects with none are left out).
    func unseen(_ entries: [PullResponse.Entry], since: String, model: String) throws(Refusal) -> [PullResponse.Entry] {
        let older: VersionTranslation?
        do {
            older = try checkModel(model, since, lock: nil)
        } catch {
            throw Refusal(status: 400, message: "the field 'since' names \(since), which this server cannot serve: \(error.version?.reason ?? error.message)")
        }
        guard let older else { return [] }   // the server's own version saw everything
        return entries.compactMap { entry in
            let change = entry.change
            guard older.sees(entity: change.entity) else { return entry }
            let state = change.state.renaming({ name in older.sees(entity: change.entity, property: name) ? nil : name }, converting: { _, _, value in value })
            guard state.touchesProperties else { return nil }
            return PullResponse.Entry(sequence: entry.sequence, change: SyncChange(entity: change.entity, id: change.id, state: state))
        }
    }

    /// The page of changes after `after` that `account` may see; with `counting`, its
    /// `remaining` counts every change after it, else only up to `limit` of them (a full count
    /// reads the log to its end, so counting on every page of a long pull would cost the square
    /// of its length).
    func readPage(after: Int64, limit: Int, account: String, counting: Bool) async throws -> PullResponse {
        let engine = self.engine
        let epoch = try await self.epoch()
        let (entries, remaining) = try await stack.perform { transaction -> ([PullResponse.Entry], Int64) in
            let connection = try transaction.syncConnection(configuration: engine.configuration)
            // Deleted objects come too, also to a device that pulls from the start: one that pushed
            // objects before its first pull holds some, and must learn that they were deleted.
            let visible = " AND (owner IS NULL OR owner = ?)"
            let statement = try connection.cachedStatement(
                "SELECT gid, entity, state, sequence FROM strata_sync_objects WHERE sequence > ?" + visible + " ORDER BY sequence LIMIT ?")
            statement.bind(after, at: 1)
            statement.bind(account, at: 2)
            statement.bind(Int64(limit), at: 3)
            var entries: [PullResponse.Entry] = []
            do {
                defer { statement.reset() }
                while try statement.step() {
                    guard let gid = GlobalID(statement.row.string(0)) else { continue }
                    guard case .blob(let bytes) = statement.row.value(2), let state = SyncedObject(storedBytes: bytes) else {
                        throw StrataError.syncFailed("the stored state of \(gid) could not be read")
                    }
                    entries.append(.init(sequence: statement.row.int64(3), change: SyncChange(entity: statement.row.string(1), id: gid, state: state)))
                }
            }
            let checkpoint = entries.last?.sequence ?? after
            let later = "SELECT 1 FROM strata_sync_objects WHERE sequence > ?" + visible
            let count = try connection.cachedStatement(counting ? "SELECT count(*) FROM (\(later)) AS later"
                                                                : "SELECT count(*) FROM (\(later) ORDER BY sequence LIMIT ?) AS later")
            defer { count.reset() }
            count.bind(checkpoint, at: 1)
            count.bind(account, at: 2)
            if !counting { count.bind(Int64(limit), at: 3) }
            let remaining = try count.step() ? count.row.int64(0) : 0
            return (entries, remaining)
        }
        return PullResponse(entries: entries, checkpoint: entries.last?.sequence ?? after, remaining: remaining, clock: engine.latestStamp, epoch: epoch, account: account)
    }
}
