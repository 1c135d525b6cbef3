import Foundation
import Hummingbird
import NIOCore
import Strata

/// A request's JSON body, decoded into a generated type (`Patch<Person>`, `[Person.ImportPayload]`):
/// a 413 past ``maximumSize``, a 400 when it is empty or not JSON, and a 400 whose message is the
/// decoder's when it does not fit the type (a `PayloadError` names every bad field).
enum RequestBody {
    /// The largest body a request may carry.
    static let maximumSize = 1 << 20

    /// The body of `request` as a `T`; `described` says what the body must be when its JSON is
    /// of another kind.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, described: String = "a JSON object") async throws -> T {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maximumSize)
        } catch is NIOTooManyBytesError {
            throw HTTPError(.contentTooLarge, message: "the body is larger than \(maximumSize) bytes")
        }
        guard buffer.readableBytes > 0 else { throw HTTPError(.badRequest, message: "the body is empty; send JSON") }
        let data = Data(buffer.readableBytesView)
        guard (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil else {
            throw HTTPError(.badRequest, message: "the body is not valid JSON")
        }
        do {
            return try APIJSON.decoder().decode(T.self, from: data)
        } catch let error as PayloadError {
            throw HTTPError(.badRequest, message: error.description)
        } catch let error as StrataError {
            // An import payload's own error, which the error middleware answers.
            throw error
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw HTTPError(.badRequest, message: "the body must be \(described)")
        } catch {
            throw HTTPError(.badRequest, message: "the body does not fit: \(error)")
        }
    }
}
