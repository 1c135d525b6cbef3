import Foundation
import Synchronization
import Strata
import StrataSyncCore
import StrataSyncEngine

/// The exchanges of one ``CloudStore`` with its server: pulls, then pushes, one exchange at a
/// time; and, unless the store syncs only when asked, a loop that keeps a live pull open, pushes
/// after each local commit, and backs off while the server does not answer.
actor CloudSession {
    /// The most objects one pull page brings (each page is one commit).
    static let pageSize = 1_000
    /// How long a live pull waits on the server for a change.
    static let liveWait = 25_000

    let engine: SyncEngine
    let endpoint: URL
    let transport: any CloudTransport
    let client: String
    let emit: @Sendable (CloudStoreEvent) -> Void
    /// The app's model version's lock, sent with every request (the server refuses a version
    /// whose lock differs from the one it sealed).
    let versionLock: String
    private var token: String?
    private var running: Task<(pushed: Int, pulled: Int), any Error>?
    private var loop: Task<Void, Never>?
    private var pushScheduled = false
    /// Whether local commits wake the session (while its loop runs), and whether a wake-up is
    /// on its way: read by committing threads, so that a commit costs no task when it need not.
    private nonisolated let commitNotices = CommitNotices()
    /// Whether the next answer's account is announced as added.
    private var announcesAccount = false

    init(engine: SyncEngine, endpoint: URL, transport: any CloudTransport, client: String, token: String?,
         emit: @escaping @Sendable (CloudStoreEvent) -> Void) {
        self.engine = engine
        self.endpoint = endpoint
        self.transport = transport
        self.client = client
        self.token = token
        self.emit = emit
        versionLock = engine.stack.schemaHistory.currentVersion.versionLock.metadataText
    }

    /// Changes the token requests carry (nil: none are sent); with `announcing`, the account of
    /// the next answer is announced as added.
    func setToken(_ token: String?, announcing: Bool) {
        self.token = token
        announcesAccount = announcing
    }

    /// Pulls what the server holds after the checkpoint, then pushes every waiting change; after
    /// the exchanges already running. Returns what moved.
    func sync() async throws -> (pushed: Int, pulled: Int) {
        let result = try await inTurn { try await self.exchange() }
        emit(.synced(pushed: result.pushed, pulled: result.pulled))
        return result
    }

    /// Runs `work` after the exchanges already running (one exchange at a time).
    private func inTurn(_ work: @escaping @Sendable () async throws -> (pushed: Int, pulled: Int)) async throws -> (pushed: Int, pulled: Int) {
        let previous = running
        let task = Task { () async throws -> (pushed: Int, pulled: Int) in
            _ = try? await previous?.value
            return try await work()
        }
        running = task
        return try await task.value
    }

    /// Pushes every waiting change, after the exchanges already running.
    func pushNow() async throws {
        _ = try await inTurn {
            guard await self.token != nil else { throw StrataError.syncFailed("the store has no account; set CloudStore.account to sync") }
            return (try await self.pushAll(), 0)
        }
    }

    private func exchange() async throws -> (pushed: Int, pulled: Int) {
        guard token != nil else { throw StrataError.syncFailed("the store has no account; set CloudStore.account to sync") }
        try await catchUp()
        let pulled = try await pullAll(wait: nil)
        let pushed = try await pushAll()
        return (pushed, pulled)
    }

    // MARK: The loop

    /// Starts syncing by itself: now, after each local commit, and whenever the server has news.
    func startLoop() {
        guard loop == nil else { return }
        loop = Task { await self.runLoop() }
        commitNotices.wanted.store(true, ordering: .releasing)
    }

    /// Stops syncing by itself; requests under way end.
    func stopLoop() {
        commitNotices.wanted.store(false, ordering: .releasing)
        loop?.cancel()
        loop = nil
    }

    /// A local commit recorded changes (called on the committing thread): while the loop runs,
    /// wakes the session to push them soon; one wake-up at a time.
    nonisolated func commitRecorded() {
        guard commitNotices.wanted.load(ordering: .acquiring), !commitNotices.pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        Task {
            commitNotices.pending.store(false, ordering: .releasing)
            await self.schedulePush()
        }
    }

    /// Pushes soon (one push for a run of commits).
    private func schedulePush() {
        guard loop != nil, !pushScheduled else { return }
        pushScheduled = true
        Task {
            await self.pushSoon()
        }
    }

    private func pushSoon() async {
        pushScheduled = false
        do {
            _ = try await sync()
        } catch {
            report(error)
        }
    }

    /// Tells the app of a failed sync: a refused model version as an update it needs (and then
    /// the loop stops: asking again cannot help), anything else as a failure to retry.
    private func report(_ error: any Error) {
        let error = Self.strataError(error)
        if case .syncVersionRefused = error {
            emit(.updateRequired(error))
            stopLoop()
        } else {
            emit(.failed(error))
        }
    }

    private func runLoop() async {
        var delay = Duration.milliseconds(250)
        while !Task.isCancelled {
            do {
                _ = try await sync()
                while !Task.isCancelled {
                    if try await pullAll(wait: Self.liveWait) > 0 { emit(.synced(pushed: 0, pulled: 1)) }
                    delay = .milliseconds(250)
                }
            } catch {
                if Task.isCancelled { return }
                report(error)   // a refused version stops the loop: the sleep then ends at once
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(30))
            }
        }
    }

    static func strataError(_ error: any Error) -> StrataError {
        (error as? StrataError) ?? .syncFailed("\(error)")
    }

    // MARK: Pushes

    /// Pushes batches until none wait; returns how many changes went.
    @discardableResult
    func pushAll() async throws -> Int {
        var pushed = 0
        while let batch = try await engine.nextBatch(limit: SyncLimits.changesPerPush) {
            let request = PushRequest(client: client, model: engine.stack.schemaHistory.modelName,
                                      version: engine.stack.schemaHistory.currentVersion.name, lock: versionLock, batch: batch.number, changes: batch.changes)
            let answer: PushResponse
            do {
                answer = try await send(Data(request.jsonBytes()), to: "push", timeout: .seconds(60)) { data throws in
                    try JSONDecoder().decode(PushResponse.self, from: data)
                }
            } catch let refusal as Refusal where refusal.status == 409 {
                // The batch broke a rule of the model on the server (two objects with one unique
                // value, say): it is rebuilt from the objects as they are now, so a local fix goes.
                try await engine.rebuildBatch(batch.number)
                throw refusal.error
            }
            engine.receive(answer.clock)
            if try await settleIdentity(account: answer.account, epoch: answer.epoch) { continue }
            guard answer.applied >= batch.number else {
                throw StrataError.syncFailed("the server applied batch \(answer.applied) of this device, not batch \(batch.number); the batch is kept")
            }
            try await engine.acknowledge(through: batch.number)
            pushed += batch.changes.count
        }
        return pushed
    }

    // MARK: Account and content

    /// Compares the account and epoch a server answered with to those the store synced with
    /// before. Another account's objects, or a removed content, are erased (with their events);
    /// returns whether they were, so the caller starts again.
    func settleIdentity(account: String, epoch: String) async throws -> Bool {
        let known = try await engine.withMeta { meta in (try meta.value("account"), try meta.value("epoch")) }
        if let knownAccount = known.0, knownAccount != account {
            emit(.accountWillRemove)
            try await engine.removeContent()
            emit(.accountDidRemove)
            emit(.accountWillAdd)
            try await remember(account: account, epoch: epoch)
            announcesAccount = false
            emit(.accountDidAdd(account: account))
            return true
        }
        if let knownEpoch = known.1, knownEpoch != epoch {
            emit(.contentWillRemove)
            try await engine.removeContent()
            try await remember(account: account, epoch: epoch)
            emit(.contentDidRemove)
            return true
        }
        if known.0 == nil || known.1 == nil { try await remember(account: account, epoch: epoch) }
        if announcesAccount {
            announcesAccount = false
            emit(.accountDidAdd(account: account))
        }
        return false
    }

    private func remember(account: String, epoch: String) async throws {
        try await engine.withMeta { meta in
            try meta.set("account", to: account)
            try meta.set("epoch", to: epoch)
        }
    }

    /// The store was signed out: with `erasing`, its synced objects and sync state go (the
    /// next account starts fresh); without, they stay, and are erased only when another account
    /// than theirs signs in.
    func signedOut(erasing: Bool) async throws {
        token = nil
        announcesAccount = false
        if erasing { try await engine.removeContent() }
    }

    /// Whether the store has synced with an account before (and kept its objects).
    func knowsAccount() async throws -> Bool {
        try await engine.withMeta { try $0.value("account") } != nil
    }

    // MARK: Requests

    /// Posts a request's JSON `body` to `operation`, and reads a 200's body with `read`.
    func send<Answer: Sendable>(_ body: Data, to operation: String, timeout: Duration,
                                read: @escaping @Sendable (Data) throws -> Answer) async throws -> Answer {
        guard let token else { throw StrataError.syncFailed("the store has no account; set CloudStore.account to sync") }
        return try await Self.exchange(body, at: endpoint.appendingPathComponent(operation), operation: operation, token: token,
                                       timeout: timeout, transport: transport, read: read)
    }

    /// The request and the reading of its answer, away from the session's actor: a page is
    /// decoded while the session goes on with the page before it.
    @concurrent
    private nonisolated static func exchange<Answer: Sendable>(_ body: Data, at url: URL, operation: String, token: String, timeout: Duration,
                                                               transport: any CloudTransport,
                                                               read: @escaping @Sendable (Data) throws -> Answer) async throws -> Answer {
        let status: Int
        let data: Data
        do {
            (status, data) = try await transport.post(url, body: body, token: token, timeout: timeout)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw StrataError.syncFailed("the server could not be reached for a \(operation): \(error)")
        }
        guard status == 200 else {
            let refusal = try? JSONDecoder().decode(SyncErrorBody.self, from: data)
            if status == 426, let refusal, let clientVersion = refusal.clientVersion, let serverVersion = refusal.serverVersion, let reason = refusal.reason {
                throw StrataError.syncVersionRefused(clientVersion: clientVersion, serverVersion: serverVersion, reason: reason)
            }
            let message = refusal?.error ?? String(decoding: data.prefix(500), as: UTF8.self)
            let error = StrataError.syncFailed("the server answered \(status) to a \(operation): \(message)")
            if status == 409 { throw Refusal(status: status, error: error) }
            throw error
        }
        do {
            return try read(data)
        } catch {
            throw StrataError.syncFailed("the server's answer to a \(operation) could not be read: \(error)")
        }
    }

    /// A refusal the session acts on before reporting it.
    private struct Refusal: Error {
        let status: Int
        let error: StrataError
    }
}

/// What a committing thread reads to decide whether to wake a session.
private final class CommitNotices: Sendable {
    /// Whether the session's loop runs (commits then push).
    let wanted = Atomic<Bool>(false)
    /// Whether a wake-up is on its way.
    let pending = Atomic<Bool>(false)
}
