import Hummingbird
import Strata

/// `?offset=&limit=` of a list endpoint: 0 and 100 unless given, at most 1,000 a page.
struct Paging: Sendable {
    static let maximumLimit = 1_000
    var offset = 0
    var limit = 100

    init(_ request: Request) throws {
        let query = request.uri.queryParameters
        if let text = query["offset"] {
            guard let value = Int(text), value >= 0 else {
                throw HTTPError(.badRequest, message: "the query parameter 'offset' must be a whole number from 0, not '\(text)'")
            }
            offset = value
        }
        if let text = query["limit"] {
            guard let value = Int(text), (1...Self.maximumLimit).contains(value) else {
                throw HTTPError(.badRequest, message: "the query parameter 'limit' must be a whole number from 1 to \(Self.maximumLimit), not '\(text)'")
            }
            limit = value
        }
    }

    /// Applies the page to a fetch.
    func apply(_ tweak: inout Tweak) {
        tweak.offset = offset
        tweak.limit = limit
    }
}
