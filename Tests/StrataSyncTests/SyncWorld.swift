import Foundation
import Strata
import StrataCloud
import StrataSyncServer
import StrataTestSupport
import Synchronization

/// A server's transport for tests: requests go straight to a ``SyncServer`` in this process, and
/// it can be taken offline (every request then fails as an unreachable server does).
final class InProcessTransport: CloudTransport {
    let server: SyncServer
    private let offline = Atomic(false)
    /// How many requests reached the server.
    let requests = Atomic(0)
    /// The count of requests after which the server cannot be reached (Int.max: never).
    private let reachableUntil = Atomic(Int.max)

    init(server: SyncServer) {
        self.server = server
    }

    var isOffline: Bool {
        get { offline.load(ordering: .relaxed) }
        set { offline.store(newValue, ordering: .relaxed) }
    }

    /// How many more requests reach the server before it cannot be reached; nil: all of them.
    var failAfter: Int? {
        get { reachableUntil.load(ordering: .relaxed) == .max ? nil : reachableUntil.load(ordering: .relaxed) - requests.load(ordering: .relaxed) }
        set { reachableUntil.store(newValue.map { requests.load(ordering: .relaxed) + $0 } ?? .max, ordering: .relaxed) }
    }

    struct Unreachable: Error, CustomStringConvertible {
        var description: String { "the server cannot be reached" }
    }

    func post(_ url: URL, body: Data, token: String, timeout: Duration) async throws -> (status: Int, body: Data) {
        if isOffline || requests.load(ordering: .relaxed) >= reachableUntil.load(ordering: .relaxed) { throw Unreachable() }
        requests.add(1, ordering: .relaxed)
        let path = "/" + url.pathComponents.suffix(2).joined(separator: "/")
        let answer = await server.respond(to: SyncHTTPRequest(method: "POST", path: path, authorization: "Bearer " + token, body: Array(body)))
        return (answer.status, Data(answer.body))
    }
}

/// A server stack with a sync server, and devices that sync with it.
struct SyncWorld {
    static let tokens = ["t-alice": "alice", "t-bob": "bob"]

    let serverStack: DataStack
    let server: SyncServer
    let transport: InProcessTransport

    /// A server over a fresh store of the test backend (SQLite, or PostgreSQL when asked).
    static func make() async throws -> SyncWorld {
        let stack = DataStack(Planner.schemaHistory)
        try await stack.addStorage(try freshStore())
        let server = try await SyncServer(stack: stack) { token in tokens[token] }
        return SyncWorld(serverStack: stack, server: server, transport: InProcessTransport(server: server))
    }

    /// A device: a stack over a new file with a store that syncs when asked.
    func device(account: String? = "t-alice", options: CloudStorageOptions = [.syncOnlyWhenAsked],
                file: URL? = nil) async throws -> (stack: DataStack, store: CloudStore) {
        let stack = DataStack(Planner.schemaHistory)
        let url = file ?? TestFolders.url("device").appendingPathExtension("sqlite")
        let store = CloudStore(fileURL: url, server: URL(string: "http://sync.test/sync")!, contentName: "Planner",
                               account: account.map { .bearer($0) }, cloudStorageOptions: options, transport: transport)
        try await stack.addStorage(store)
        return (stack, store)
    }
}

extension SyncWorld {
    /// Serves the sync server over HTTP on a loopback port, mounted at `/sync`.
    func httpServer() throws -> LoopbackHTTPServer {
        let server = self.server
        return try LoopbackHTTPServer { request in
            let answer = await server.respond(method: request.method, path: request.path, mountedAt: "/sync",
                                              authorization: request.headers["authorization"], body: request.body)
            return LoopbackHTTPServer.Response(status: answer.status, contentType: answer.contentType, body: answer.body)
        }
    }

    /// A device that reaches the server over HTTP through `URLSession`.
    func httpDevice(_ http: LoopbackHTTPServer, account: String = "t-alice", options: CloudStorageOptions = [.syncOnlyWhenAsked],
                    file: URL? = nil) async throws -> (stack: DataStack, store: CloudStore) {
        let stack = DataStack(Planner.schemaHistory)
        let url = file ?? TestFolders.url("device").appendingPathExtension("sqlite")
        let store = CloudStore(fileURL: url, server: http.baseURL.appendingPathComponent("sync"), contentName: "Planner",
                               account: .bearer(account), cloudStorageOptions: options)
        try await stack.addStorage(store)
        return (stack, store)
    }
}
