import Foundation
import Strata
import StrataCloud
import StrataSyncServer
import StrataTestSupport

/// The sync crash tests' children: a server, a device that commits and pushes until killed, and
/// the checks of what they left.
enum SyncRun {
    static let tokens = ["t-device": "device"]

    /// Serves the Tally content over HTTP on `port` (0: any free one), printing "serving PORT".
    static func serve(_ storage: any StorageInterface, port: Int) async throws {
        let stack = DataStack(Tally.schemaHistory)
        try await stack.addStorage(storage)
        let server = try await SyncServer(stack: stack) { tokens[$0] }
        let http = try LoopbackHTTPServer(port: port) { request in
            let answer = await server.respond(method: request.method, path: request.path, mountedAt: "/sync",
                                              authorization: request.headers["authorization"], body: request.body)
            return LoopbackHTTPServer.Response(status: answer.status, contentType: answer.contentType, body: answer.body)
        }
        say("serving", http.port)
        while true { try await Task.sleep(for: .seconds(3_600)) }
    }

    /// A device over the file `path` that syncs with `server`.
    static func device(_ path: String, server: String) async throws -> (DataStack, CloudStore) {
        let stack = DataStack(Tally.schemaHistory)
        let store = CloudStore(fileURL: URL(fileURLWithPath: path), server: URL(string: server)!, contentName: "Tally",
                               account: .bearer("t-device"), cloudStorageOptions: [.syncOnlyWhenAsked])
        try await stack.addStorage(store)
        return (stack, store)
    }

    /// Commits marks named `ROUND-N` until killed, printing "ack ROUND-N" once each commit
    /// returned, and pushing after each (a push the server does not answer is tried again later).
    static func commitAndPush(_ path: String, server: String, round: String) async throws {
        let (stack, store) = try await device(path, server: server)
        var number = 0
        while true {
            number += 1
            let name = "\(round)-\(number)"
            try await stack.perform { transaction in
                transaction.create(Into<Mark>()).name = name
            }
            say("ack", name)
            do {
                try await store.sync()
            } catch {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// Syncs until no change waits, printing "drained".
    static func drain(_ path: String, server: String) async throws {
        let (_, store) = try await device(path, server: server)
        repeat { try await store.sync() } while try await store.unpushedChangeCount() > 0
        say("drained")
    }

    /// Prints every mark's name, one per line, then "end".
    static func names(_ storage: any StorageInterface) async throws {
        let stack = DataStack(Tally.schemaHistory)
        try await stack.addStorage(storage)
        let names = try await stack.perform { transaction in try transaction.fetchAll(From<Mark>()).map(\.name) }
        for name in names { say(name) }
        say("end")
    }
}
