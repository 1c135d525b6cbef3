import Foundation
import Synchronization

/// A relay between PostgreSQL clients and the throwaway server's Unix socket that can play a
/// server which closed its connections while they sat idle, with the client not yet aware.
///
/// A real server's close reaches the client at once, and a client usually sees it before it sends
/// its next statement; but not always (the close and the statement race). ``severAll()`` makes the
/// other case certain: every connection open through the relay is cut from the server at once
/// (its backend ends and rolls back), and its client's side is closed only when the client next
/// sends something, so that statement is the one that finds the connection gone.
public final class SeveringRelay: Sendable {
    /// The folder holding the relay's socket: a URL's `host=` for clients.
    public let socketFolder: String
    private let serverSocketPath: String
    private let listener: Int32
    private let state = Mutex(State())

    private struct State {
        var connections: [Pair] = []
        var severedOnUse = 0
        var stopped = false
    }

    /// One client's connection: its socket and its socket to the server. Both are closed when
    /// both pumps have stopped, under the relay's lock, so no shutdown ever meets a reused number.
    private final class Pair: Sendable {
        let client: Int32
        let server: Int32
        let severed = Atomic<Bool>(false)
        let pumpsStopped = Atomic<Int>(0)
        init(client: Int32, server: Int32) {
            self.client = client
            self.server = server
        }
    }

    /// A relay to the server whose socket is `serverSocketPath`, listening in a new folder.
    public init(serverSocketPath: String) throws {
        let folder = TestFolders.url("relay")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        socketFolder = folder.path
        self.serverSocketPath = serverSocketPath
        listener = try UnixSocket.listening(on: folder.path + "/.s.PGSQL.5432")
        let relay = self
        Thread.detachNewThread { relay.acceptConnections() }
    }

    /// A URL for `database` as `user` through the relay.
    public func url(database: String, user: String) -> String {
        "postgres://\(user)@/\(database)?host=\(socketFolder)"
    }

    /// Cuts every connection open now from the server; each client finds out when it next sends.
    public func severAll() {
        state.withLock { state in
            for pair in state.connections {
                pair.severed.store(true, ordering: .sequentiallyConsistent)
                shutdown(pair.server, Int32(SHUT_RDWR))
            }
        }
    }

    /// How many severed connections a client has sent something on since the relay started.
    public var severedOnUse: Int { state.withLock { $0.severedOnUse } }

    /// Stops accepting connections and closes every connection still open.
    public func stop() {
        state.withLock { state in
            state.stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            for pair in state.connections {
                shutdown(pair.client, Int32(SHUT_RDWR))
                shutdown(pair.server, Int32(SHUT_RDWR))
            }
        }
    }

    /// Notes that one of a pair's pumps stopped; the second closes both sockets.
    private func pumpStopped(_ pair: Pair) {
        state.withLock { state in
            guard pair.pumpsStopped.add(1, ordering: .sequentiallyConsistent).newValue == 2 else { return }
            state.connections.removeAll { $0 === pair }
            close(pair.client)
            close(pair.server)
        }
    }

    private func acceptConnections() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { break }
            guard let server = try? UnixSocket.connected(to: serverSocketPath) else {
                close(client)
                continue
            }
            let pair = Pair(client: client, server: server)
            let accepted = state.withLock { state in
                if !state.stopped { state.connections.append(pair) }
                return !state.stopped
            }
            guard accepted else {
                close(client)
                close(server)
                break
            }
            let relay = self
            Thread.detachNewThread { relay.pumpFromClient(pair) }
            Thread.detachNewThread { relay.pumpFromServer(pair) }
        }
        close(listener)
    }

    /// Client to server; on a severed connection, the client's next bytes close it instead.
    private func pumpFromClient(_ pair: Pair) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(pair.client, &buffer, buffer.count)
            if count > 0, pair.severed.load(ordering: .sequentiallyConsistent) {
                state.withLock { $0.severedOnUse += 1 }
                shutdown(pair.client, Int32(SHUT_RDWR))
                break
            }
            guard count > 0, Self.writeAll(pair.server, buffer, count) else { break }
        }
        shutdown(pair.server, Int32(SHUT_RDWR))
        pumpStopped(pair)
    }

    /// Server to client; a severed connection's client side stays open, silent, until the
    /// client sends.
    private func pumpFromServer(_ pair: Pair) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(pair.server, &buffer, buffer.count)
            guard count > 0, !pair.severed.load(ordering: .sequentiallyConsistent),
                  Self.writeAll(pair.client, buffer, count) else { break }
        }
        if !pair.severed.load(ordering: .sequentiallyConsistent) { shutdown(pair.client, Int32(SHUT_RDWR)) }
        pumpStopped(pair)
    }

    private static func writeAll(_ descriptor: Int32, _ buffer: [UInt8], _ count: Int) -> Bool {
        var written = 0
        while written < count {
            let result = buffer.withUnsafeBytes { send(descriptor, $0.baseAddress! + written, count - written, Int32(MSG_NOSIGNAL)) }
            guard result > 0 else { return false }
            written += result
        }
        return true
    }
}
