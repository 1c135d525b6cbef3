import Foundation
import StrataSyncCore
import StrataSyncEngine

/// A request as the sync server reads it: whatever web framework received it hands over these
/// parts, so the server needs none.
public struct SyncHTTPRequest: Sendable {
    /// The method, `POST` for every sync request.
    public var method: String
    /// The path below where the server is mounted: `/<content>/push` or `/<content>/pull`.
    public var path: String
    /// The `Authorization` header's value, if the request had one (`Bearer <token>`).
    public var authorization: String?
    /// The body's bytes.
    public var body: [UInt8]

    /// A request with these parts.
    public init(method: String, path: String, authorization: String?, body: [UInt8]) {
        self.method = method
        self.path = path
        self.authorization = authorization
        self.body = body
    }
}

/// The answer to a ``SyncHTTPRequest``: a status, a content type and a JSON body.
public struct SyncHTTPResponse: Sendable, Equatable {
    /// The HTTP status code.
    public var status: Int
    /// The body's content type, `application/json`.
    public var contentType: String
    /// The body's bytes.
    public var body: [UInt8]

    /// An answer with a JSON body.
    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.contentType = "application/json"
        self.body = body
    }

    /// An answer holding `value` as JSON.
    static func json(_ value: some Encodable, status: Int = 200) -> SyncHTTPResponse {
        do {
            return SyncHTTPResponse(status: status, body: Array(try JSONEncoder().encode(value)))
        } catch {
            return .error(500, "the answer could not be written: \(error)")
        }
    }

    /// A refusal: `{"error": message}`, with the versions and the reason for a 426.
    static func error(_ status: Int, _ message: String, version: VersionRefusal? = nil) -> SyncHTTPResponse {
        var refusal = SyncErrorBody(error: message)
        if let version {
            refusal.clientVersion = version.clientVersion
            refusal.serverVersion = version.serverVersion
            refusal.reason = version.reason
        }
        let body = (try? JSONEncoder().encode(refusal)) ?? Data("{}".utf8)
        return SyncHTTPResponse(status: status, body: Array(body))
    }

    /// The message of a refusal's body, if it is one.
    public var errorMessage: String? {
        (try? JSONDecoder().decode(SyncErrorBody.self, from: Data(body)))?.error
    }
}
