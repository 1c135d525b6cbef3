import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a ``CloudStore`` reaches its server: one JSON request, one answer. The default speaks
/// HTTP through `URLSession`; a test can hand requests to a server in the same process.
public protocol CloudTransport: Sendable {
    /// Sends `body` to `url` with `POST` and the bearer `token`; returns the status and body.
    /// Throws when no answer came (the store then retries with backoff).
    func post(_ url: URL, body: Data, token: String, timeout: Duration) async throws -> (status: Int, body: Data)
}

/// HTTP through Foundation's `URLSession` (FoundationNetworking on Linux).
public struct URLSessionTransport: CloudTransport {
    /// The session requests go through.
    public let session: URLSession

    /// A transport over `session` (by default one of its own, which caches nothing).
    public init(session: URLSession? = nil) {
        if let session {
            self.session = session
        } else {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForResource = 120
            self.session = URLSession(configuration: configuration)
        }
    }

    /// Sends the request through the session; a 4xx or 5xx answer is returned, not thrown.
    public func post(_ url: URL, body: Data, token: String, timeout: Duration) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer " + token, forHTTPHeaderField: "Authorization")
        request.timeoutInterval = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }
}
