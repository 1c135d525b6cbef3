import Foundation
import Strata
import StrataSyncCore
import StrataSyncEngine

/// Pulls: pages of the server's log, applied in order, each as one commit. While a page is
/// applied here, the next one is already on its way (the server reads it, the network carries
/// it, this device decodes it), so a long pull costs about the slower of the two halves rather
/// than their sum.
extension CloudSession {
    /// The setting that marks an initial import under way, holding how many objects it brought
    /// so far: an import cut short (the app quit, the network went) goes on at the next sync as
    /// the same import, with its progress and its end reported.
    static let initialImportKey = "initial-import"

    /// Pulls and applies pages until none remain; the first request may wait for news. Returns
    /// how many objects changed here.
    @discardableResult
    func pullAll(wait: Int?) async throws -> Int {
        let (stored, importing) = try await engine.withMeta { meta in
            (try meta.value("checkpoint").flatMap(Int64.init) ?? 0, try meta.value(Self.initialImportKey).flatMap(Int.init))
        }
        var checkpoint = stored
        var initial = checkpoint == 0 || importing != nil
        var imported = importing ?? 0
        var total = 0
        var counted = false
        var changed = 0
        var wait = wait
        var next: Task<PullResponse, any Error>?
        defer { next?.cancel() }
        while true {
            let page: PullResponse
            if let next {
                page = try await Self.value(of: next)
            } else {
                // Only an initial import's first page counts the whole log (for its progress).
                page = try await pull(after: checkpoint, wait: wait, counting: initial && !counted)
                counted = counted || initial
            }
            next = nil
            wait = nil
            if try await settleIdentity(account: page.account, epoch: page.epoch) {
                checkpoint = 0
                initial = true
                imported = 0
                total = 0
                counted = false
                continue
            }
            // A page may hold nothing this version sees and still move the checkpoint on.
            guard !page.entries.isEmpty || page.checkpoint > checkpoint else {
                if initial, imported > 0 { try await finishImport(imported: imported) }
                return changed
            }
            if initial, page.remaining == 0 { emit(.initialImportWillFinish) }
            if page.remaining > 0 {
                let after = page.checkpoint
                next = Task { try await self.pull(after: after, wait: nil, counting: false) }
            }
            let importedAfter = imported + page.entries.count
            do {
                // An import's count goes with its page (and ends with its last one).
                let settings: [String: String?] = initial ? [Self.initialImportKey: page.remaining == 0 ? nil : String(importedAfter)] : [:]
                changed += try await engine.applyPage(page, settings: settings)
            } catch let error as StrataError {
                // Say what kept this device from taking the server's changes (two objects with
                // one unique value, say); the page is pulled again at the next sync.
                throw StrataError.syncFailed("the server's changes could not be applied here: \(error)")
            }
            checkpoint = page.checkpoint
            if initial {
                imported = importedAfter
                total = max(total, imported + Int(page.remaining))
                emit(.initialImportProgress(imported: imported, total: total))
            }
            if page.remaining == 0 {
                if initial { emit(.initialImportDidFinish) }
                return changed
            }
        }
    }

    /// Ends an import whose last page was applied without ending it (the log ended with pages
    /// this version sees nothing of).
    private func finishImport(imported: Int) async throws {
        try await engine.withMeta { try $0.remove(Self.initialImportKey) }
        emit(.initialImportWillFinish)
        emit(.initialImportProgress(imported: imported, total: imported))
        emit(.initialImportDidFinish)
    }

    /// A page pulled ahead; cancelling the waiting task cancels its request.
    private static func value(of task: Task<PullResponse, any Error>) async throws -> PullResponse {
        try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// After an app update: pulls, once, what the older version could not see (objects of
    /// entities it lacked, properties it lacked) up to the checkpoint; later changes come whole.
    func catchUp() async throws {
        let (older, through, start) = try await engine.withMeta { meta in
            (try meta.value(SyncEngine.catchUpKey), try meta.value("checkpoint").flatMap(Int64.init) ?? 0,
             try meta.value(SyncEngine.catchUpCheckpointKey).flatMap(Int64.init) ?? 0)
        }
        guard let older else { return }
        var after = start
        while after < through {
            let page = try await pull(after: after, wait: nil, since: older, counting: false)
            guard page.checkpoint > after else { break }
            _ = try await engine.applyPage(page, checkpointKey: SyncEngine.catchUpCheckpointKey)
            after = page.checkpoint
        }
        try await engine.withMeta { meta in
            try meta.remove(SyncEngine.catchUpKey)
            try meta.remove(SyncEngine.catchUpCheckpointKey)
        }
    }

    /// One page of the server's log after `after` (see ``PullRequest``); with `counting`, its
    /// `remaining` counts the whole log after it.
    private func pull(after: Int64, wait: Int?, since: String? = nil, counting: Bool) async throws -> PullResponse {
        let request = PullRequest(client: client, model: engine.stack.schemaHistory.modelName, version: engine.stack.schemaHistory.currentVersion.name,
                                  lock: versionLock, after: after, limit: Self.pageSize, wait: wait, since: since, count: counting)
        return try await send(try JSONEncoder().encode(request), to: "pull", timeout: .milliseconds((wait ?? 0) + 30_000)) { data throws in
            try PullResponse(jsonBytes: Array(data))
        }
    }
}
