import Foundation
import Synchronization
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
        // Not `session.data(for:)`: on Linux its cancellation handler cancels the URLSession task
        // synchronously, inside the Swift task's cancellation, and FoundationNetworking's cancel
        // then waits for the session's queue, which can be waiting for that cancellation: a stop
        // of a live loop hung that way. Here the cancel runs on another thread.
        let pending = PendingRequest()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error { return continuation.resume(throwing: error) }
                    continuation.resume(returning: ((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data()))
                }
                pending.start(task)
            }
        } onCancel: {
            pending.cancel()
        }
    }
}

/// A request under way, which a cancellation stops from another thread (see
/// ``URLSessionTransport/post(_:body:token:timeout:)``).
private final class PendingRequest: Sendable {
    private let state = Mutex<(task: URLSessionDataTask?, cancelled: Bool)>((nil, false))

    /// Starts `task`, or cancels it at once when the request was cancelled before it existed.
    func start(_ task: URLSessionDataTask) {
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            return state.cancelled
        }
        task.resume()
        if cancelled { DispatchQueue.global().async { task.cancel() } }
    }

    /// Cancels the task, off the calling thread.
    func cancel() {
        guard let task = state.withLock({ state -> URLSessionDataTask? in
            state.cancelled = true
            return state.task
        }) else { return }
        DispatchQueue.global().async { task.cancel() }
    }
}
