import Foundation
import Strata
import StrataSyncCore
import StrataSyncEngine
import Synchronization

/// A SQLite store kept in step with the app's server, and through it with the user's other
/// devices: CoreStore's `ICloudStore`, on every platform Swift runs on.
///
/// Commits go to the local file as with `SQLiteStore` and succeed offline; each records what it
/// changed in the same transaction, and the store pushes it when the server answers. Changes from
/// the server arrive as ordinary commits, which monitors and observers see. Conflicts resolve the
/// same way on every device and on the server (see "Syncing across devices" in the docs).
///
/// ```swift
/// let storage = CloudStore(fileURL: url, server: URL(string: "https://api.example.com/sync")!,
///                          contentName: "PetStore", account: .bearer(token))
/// try await stack.addStorage(storage)
/// ```
public final class CloudStore: StorageInterface, StorageWrapper {
    /// The local SQLite file.
    public let fileURL: URL
    /// Where the server's sync endpoints are mounted.
    public let server: URL
    /// Which content of the server this store holds.
    public let contentName: String
    /// The configuration whose entities it holds; nil means `Default`.
    public let configuration: String?
    /// How the local file and the account are treated.
    public let cloudStorageOptions: CloudStorageOptions
    /// How requests reach the server.
    public let transport: any CloudTransport

    private struct State {
        var account: CloudAccount?
        var session: CloudSession?
        var observers: [ObjectIdentifier: WeakObserver] = [:]
        var subscribers: [UUID: AsyncStream<CloudStoreEvent>.Continuation] = [:]
    }

    private struct WeakObserver {
        weak var observer: (any CloudStoreObserver)?
    }

    private let state: Mutex<State>

    /// A store at `fileURL` (by default where `SQLiteStore()` keeps the app's file) that syncs
    /// the content `contentName` with `server` for `account` (nil: signed out, nothing syncs).
    public init(fileURL: URL = SQLiteStore.defaultFileURL, server: URL, contentName: String, account: CloudAccount?,
                configuration: String? = nil, cloudStorageOptions: CloudStorageOptions = [], transport: (any CloudTransport)? = nil) {
        self.fileURL = fileURL
        self.server = server
        self.contentName = contentName
        self.configuration = configuration
        self.cloudStorageOptions = cloudStorageOptions
        self.transport = transport ?? URLSessionTransport()
        state = Mutex(State(account: account))
    }

    /// `CloudStore(<path> ⇄ <server>/<content>)`.
    public var description: String { "CloudStore(\(fileURL.path) ⇄ \(server.absoluteString)/\(contentName))" }

    /// The local file, as the stack opens it.
    package var underlyingStorage: any StorageInterface {
        SQLiteStore(fileURL: fileURL, configuration: configuration,
                    localStorageOptions: cloudStorageOptions.contains(.recreateLocalStoreOnModelMismatch) ? [.recreateStoreOnModelMismatch] : [])
    }

    /// Who the store syncs for. Setting another account signs the old one out (its events are
    /// sent) and the new one in; nil signs out, and the store stops syncing.
    public var account: CloudAccount? {
        get { state.withLock { $0.account } }
        set {
            let (old, session) = state.withLock { state -> (CloudAccount?, CloudSession?) in
                defer { state.account = newValue }
                return (state.account, state.session)
            }
            guard old != newValue, let session else { return }
            let erasing = cloudStorageOptions.contains(.eraseLocalContentOnSignOut)
            let automatic = !cloudStorageOptions.contains(.syncOnlyWhenAsked)
            Task {
                if old != nil, newValue == nil || old != newValue {
                    self.send(.accountWillRemove)
                    await session.stopLoop()
                    do { try await session.signedOut(erasing: erasing) } catch { self.send(.failed(CloudSession.strataError(error))) }
                    self.send(.accountDidRemove)
                }
                guard let newValue else { return }
                self.send(.accountWillAdd)
                await session.setToken(newValue.token, announcing: true)
                if automatic { await session.startLoop() }
            }
        }
    }

    /// Pulls and pushes now, and returns when both are done; throws `StrataError.syncFailed`
    /// when the server could not be reached or refused (local commits are kept either way).
    public func sync() async throws {
        guard let session = state.withLock({ $0.session }) else {
            throw StrataError.syncFailed("\(self) is not added to a stack yet; add it with 'try await stack.addStorage(storage)'")
        }
        _ = try await session.sync()
    }

    /// Pushes the local changes that wait, without pulling, and returns when the server has
    /// them (before signing out, say); throws as ``sync()`` does.
    public func push() async throws {
        guard let session = state.withLock({ $0.session }) else {
            throw StrataError.syncFailed("\(self) is not added to a stack yet; add it with 'try await stack.addStorage(storage)'")
        }
        try await session.pushNow()
    }

    /// Tells `observer` of the store's account, content and initial-import events, on the main
    /// actor, for as long as it lives (the store holds it weakly).
    public func addObserver(_ observer: some CloudStoreObserver) {
        state.withLock { $0.observers[ObjectIdentifier(observer)] = WeakObserver(observer: observer) }
    }

    /// Stops telling `observer`.
    public func removeObserver(_ observer: some CloudStoreObserver) {
        _ = state.withLock { $0.observers.removeValue(forKey: ObjectIdentifier(observer)) }
    }

    /// Every event from now on, as an asynchronous sequence (each call makes a sequence of its own).
    public var events: AsyncStream<CloudStoreEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: CloudStoreEvent.self)
        let id = UUID()
        state.withLock { $0.subscribers[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// How many local changes wait to be pushed.
    public func unpushedChangeCount() async throws -> Int {
        guard let session = state.withLock({ $0.session }) else { return 0 }
        return try await session.engine.unpushedCount()
    }

    private func send(_ event: CloudStoreEvent) {
        let (subscribers, observers) = state.withLock { state in
            (Array(state.subscribers.values), state.observers.values.compactMap(\.observer))
        }
        for subscriber in subscribers { subscriber.yield(event) }
        guard !observers.isEmpty else { return }
        switch event {
        case .synced, .failed, .initialImportProgress: return
        default: break
        }
        Task { @MainActor in
            for observer in observers { observer.receive(event, from: self) }
        }
    }

    /// Starts syncing once the local file is open in `stack`.
    package func didAdd(to stack: DataStack) async throws(StrataError) {
        let configuration = self.configuration ?? "Default"
        do {
            let client = try await Self.clientID(stack: stack, configuration: configuration)
            let engine = SyncEngine(stack: stack, configuration: configuration, role: .client, node: client)
            try await engine.start()
            let session = CloudSession(engine: engine, endpoint: server.appendingPathComponent(contentName), transport: transport,
                                       client: client, token: nil) { [weak self] event in self?.send(event) }
            engine.onCommit { session.commitRecorded() }
            let account = state.withLock { state -> CloudAccount? in
                state.session = session
                return state.account
            }
            guard let account else { return }
            let announcing = !(try await session.knowsAccount())
            if announcing { send(.accountWillAdd) }
            await session.setToken(account.token, announcing: announcing)
            if !cloudStorageOptions.contains(.syncOnlyWhenAsked) { await session.startLoop() }
        } catch {
            throw CloudSession.strataError(error)
        }
    }

    /// The device's client ID, made on first use and kept in the store.
    private static func clientID(stack: DataStack, configuration: String) async throws -> String {
        let engine = SyncEngine(stack: stack, configuration: configuration, role: .client, node: "")
        try await engine.createTables()
        return try await engine.withMeta { meta in
            if let client = try meta.value("client") { return client }
            let client = UUID().uuidString.lowercased()
            try meta.set("client", to: client)
            return client
        }
    }
}

