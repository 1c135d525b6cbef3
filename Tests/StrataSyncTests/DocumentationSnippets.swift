import Foundation
import Strata
import StrataCloud
import StrataSyncServer
import StrataTestSupport
import Testing

/// The code the sync article and the README show, compiled and run here.
@Suite @MainActor struct DocumentationSnippets {
    /// The app's sign-in, as the article's server code names it.
    struct Sessions: Sendable {
        func account(for token: String) async throws -> String? { SyncWorld.tokens[token] }
    }

    /// The article's server: a SyncServer over the app's stack, mounted at `/sync`.
    static func startServer(stack: DataStack, sessions: Sessions) async throws -> LoopbackHTTPServer {
        // snippet: sync-server
        let sync = try await SyncServer(stack: stack, contentName: "Planner") { token in
            try await sessions.account(for: token)  // the app's sign-in; nil refuses the request (401)
        }
        // The web framework's route for POST /sync/** hands each request over as bytes:
        let http = try LoopbackHTTPServer { request in
            let answer = await sync.respond(method: request.method, path: request.path, mountedAt: "/sync",
                                            authorization: request.headers["authorization"], body: request.body)
            return .init(status: answer.status, contentType: answer.contentType, body: answer.body)
        }
        // end snippet
        return http
    }

    /// The article's device.
    static func startDevice(stack: DataStack, url: URL, server: URL, token: String, observer: some CloudStoreObserver) async throws -> CloudStore {
        // snippet: sync-device
        let storage = CloudStore(fileURL: url, server: server, contentName: "Planner", account: .bearer(token))
        try await stack.addStorage(storage)   // opens the file; syncing starts by itself
        storage.addObserver(observer)          // CoreStore's eight events, on the main actor
        Task {
            for await event in storage.events {  // the same, and each sync's outcome
                if case .failed(let error) = event { print("will retry: \(error)") }
            }
        }
        try await storage.sync()              // push and pull now, and wait for both
        // end snippet
        return storage
    }

    @Test func theArticlesServerAndDeviceSync() async throws {
        let serverStack = DataStack(Planner.schemaHistory)
        try await serverStack.addStorage(try freshStore())
        let http = try await Self.startServer(stack: serverStack, sessions: Sessions())
        defer { http.stop() }
        let stack = DataStack(Planner.schemaHistory)
        let observer = RecordingObserver()
        let storage = try await Self.startDevice(stack: stack, url: TestFolders.url("article").appendingPathExtension("sqlite"),
                                                 server: http.baseURL.appendingPathComponent("sync"), token: "t-alice", observer: observer)
        try await stack.perform { transaction in
            transaction.create(Into<Board>()).title = "From the article"
        }
        try await storage.sync()
        #expect(try serverStack.fetchAll(From<Board>()).map(\.title) == ["From the article"])
        storage.account = nil
    }
}
