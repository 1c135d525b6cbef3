import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An answer: the status and the body.
struct HTTPAnswer: Sendable {
    let status: Int
    let body: Data

    /// The body as JSON.
    func json() throws -> Any { try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) }

    /// The message of an error answer (`{"error": {"message": ...}}`).
    var errorMessage: String? {
        ((try? json()) as? [String: Any]).flatMap { $0["error"] as? [String: Any] }.flatMap { $0["message"] as? String }
    }
}

/// Requests to a server under test, through Foundation's URLSession.
struct HTTPClient: Sendable {
    let baseURL: URL

    func get(_ path: String) async throws -> HTTPAnswer { try await send("GET", path) }
    func delete(_ path: String) async throws -> HTTPAnswer { try await send("DELETE", path) }

    /// `object` as the JSON body.
    func post(_ path: String, json object: Any) async throws -> HTTPAnswer {
        try await send("POST", path, body: try JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed]))
    }

    func patch(_ path: String, json object: Any) async throws -> HTTPAnswer {
        try await send("PATCH", path, body: try JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed]))
    }

    /// Any request, with a raw body (and a bearer token, when given).
    func send(_ method: String, _ path: String, body: Data? = nil, token: String? = nil) async throws -> HTTPAnswer {
        var request = URLRequest(url: URL(string: path, relativeTo: baseURL)!)
        request.httpMethod = method
        request.httpBody = body
        if let token { request.setValue("Bearer " + token, forHTTPHeaderField: "Authorization") }
        request.timeoutInterval = 60
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        return try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, response, error in
                if let error { return continuation.resume(throwing: error) }
                continuation.resume(returning: HTTPAnswer(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data ?? Data()))
            }.resume()
        }
    }
}
