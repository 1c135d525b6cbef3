import Foundation
import Strata
import StrataSyncCore
import StrataSyncEngine
import Synchronization

/// The server half of sync: serves one content (a synced storage of a stack) to the devices of
/// every account, over HTTP requests that the app's web framework hands over as bytes.
///
/// Every commit to the storage is logged with the next sequence number in its own transaction,
/// whether a device pushed it or the server's own code made it, so devices see the server's
/// writes and the server's code sees devices' writes as ordinary objects.
///
/// ```swift
/// let sync = try await SyncServer(stack: stack) { token in accounts[token] }
/// // In a route for POST /sync/**:
/// let answer = await sync.respond(to: SyncHTTPRequest(method: "POST", path: path, authorization: header, body: bytes))
/// ```
public final class SyncServer: Sendable {
    /// Maps a request's bearer token to its account's ID, or nil when the token is not valid.
    public typealias Authenticate = @Sendable (_ token: String) async throws -> String?

    /// The stack whose storage is served.
    public let stack: DataStack
    /// The content's name, the first part of every request's path.
    public let contentName: String
    let engine: SyncEngine
    let authenticate: Authenticate
    let signal = CommitSignal()
    /// How each sealed version clients have named so far (with its own lock, or none) is served:
    /// at most one entry per version of the model, whatever clients send.
    let translations = Mutex<[String: Result<VersionTranslation?, VersionRefusal>]>([:])

    /// Starts serving the storage of `configuration` in `stack` as the content `contentName`
    /// (by default the model's name): creates the sync tables, logs the objects stored so far,
    /// and from then on logs every commit. `authenticate` maps each request's token to an account.
    public init(stack: DataStack, contentName: String? = nil, configuration: String = "Default", serverID: String = "server",
                authenticate: @escaping Authenticate) async throws {
        self.stack = stack
        self.contentName = contentName ?? stack.schemaHistory.modelName
        self.authenticate = authenticate
        engine = SyncEngine(stack: stack, configuration: configuration, role: .server, node: serverID)
        let signal = self.signal
        engine.onCommit { signal.ring() }
        // Commits made through other app servers on the same database wake live pulls too.
        stack.onOtherWritersCommits { signal.ring() }
        try await engine.start()
        _ = try await epoch()
    }

    /// Stops logging commits (the server is going away).
    public func stop() {
        engine.stop()
    }

    /// Answers one sync request: a push or a pull, after checking its token.
    public func respond(to request: SyncHTTPRequest) async -> SyncHTTPResponse {
        guard let authorization = request.authorization, authorization.hasPrefix("Bearer "), authorization.count > 7 else {
            return .error(401, "the request has no bearer token; send 'Authorization: Bearer <token>'")
        }
        let account: String
        do {
            guard let known = try await authenticate(String(authorization.dropFirst(7))) else {
                return .error(401, "the bearer token is not valid")
            }
            account = known
        } catch {
            return .error(401, "the bearer token could not be checked: \(error)")
        }
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.count == 2, ["push", "pull"].contains(parts[1]) else {
            return .error(404, "no sync endpoint at '\(request.path)'; the endpoints are /\(contentName)/push and /\(contentName)/pull")
        }
        guard parts[0] == contentName else { return .error(404, "no content named '\(parts[0])'; this server serves '\(contentName)'") }
        guard request.method == "POST" else { return .error(405, "'\(request.path)' takes POST, not \(request.method)") }
        guard request.body.count <= SyncLimits.requestBytes else {
            return .error(413, "the body holds \(request.body.count) bytes; a sync request holds at most \(SyncLimits.requestBytes)")
        }
        do {
            if parts[1] == "push" {
                return try await push(try decode(PushRequest.self, request.body), account: account)
            }
            return try await pull(try decode(PullRequest.self, request.body), account: account)
        } catch let refusal as Refusal {
            return .error(refusal.status, refusal.message, version: refusal.version)
        } catch {
            return .error(500, "the request failed on the server: \(error)")
        }
    }

    /// Answers a request whose whole path is `path`, for a server mounted at `mount` (`/sync`):
    /// a path outside the mount is a 404.
    public func respond(method: String, path: String, mountedAt mount: String, authorization: String?, body: [UInt8]) async -> SyncHTTPResponse {
        let prefix = mount.hasSuffix("/") ? String(mount.dropLast()) : mount
        guard path.hasPrefix(prefix + "/") else { return .error(404, "no sync endpoint at '\(path)'; sync is mounted at '\(prefix)'") }
        return await respond(to: SyncHTTPRequest(method: method, path: String(path.dropFirst(prefix.count)), authorization: authorization, body: body))
    }

    /// A request refused with a status and a message; nothing of it was applied.
    struct Refusal: Error {
        let status: Int
        let message: String
        /// For a 426: the versions and why.
        var version: VersionRefusal?
    }

    private func decode<T: Decodable & Sendable>(_ type: T.Type, _ body: [UInt8]) throws(Refusal) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(body))
        } catch let error as DecodingError {
            throw Refusal(status: 400, message: "the body is not a valid \(type): " + Self.describe(error))
        } catch {
            throw Refusal(status: 400, message: "the body is not a valid \(type): \(error)")
        }
    }

    /// A decoding error in words, with the path of the field it concerns.
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }.joined(separator: ".")
                .replacingOccurrences(of: ".[", with: "[")
            return path.isEmpty ? "" : " at '\(path)'"
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "the field '\(key.stringValue)' is missing\(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.debugDescription.trimmingCharacters(in: CharacterSet(charactersIn: ".")) + path(context)
        @unknown default:
            return "\(error)"
        }
    }

    /// Checks the model, version and lock a request names; returns how changes are translated
    /// for its version (nil at the server's own). A version the server cannot serve is a 426.
    func checkModel(_ model: String, _ version: String, lock: String?) throws(Refusal) -> VersionTranslation? {
        let history = stack.schemaHistory
        guard model == history.modelName else {
            throw Refusal(status: 400, message: "this server syncs the model '\(history.modelName)', not '\(model)'")
        }
        var clientLock: VersionLock?
        if let lock {
            guard let parsed = VersionLock(lock) else {
                throw Refusal(status: 400, message: "the field 'lock' is not a version lock (Entity:word,word,word,word;...)")
            }
            clientLock = parsed
        }
        let plan = { Result { () throws(VersionRefusal) -> VersionTranslation? in
            try VersionTranslation.plan(history: history, clientVersion: version, clientLock: clientLock)
        } }
        // Only a sealed version named with its own lock (or none) is remembered: other versions and
        // locks are refused, planned anew each time, and cannot grow the cache.
        let sealed = history.versionNames.contains(version) && (clientLock == nil || clientLock == history.version(named: version)?.versionLock)
        let planned = sealed ? translations.withLock { known in
            if let earlier = known[version] { return earlier }
            let result = plan()
            known[version] = result
            return result
        } : plan()
        switch planned {
        case .success(let translation): return translation
        case .failure(let refusal): throw Refusal(status: 426, message: refusal.error.description, version: refusal)
        }
    }
}
