import Foundation
import Hummingbird
import NIOCore

/// The fields of a JSON object in a request body, read one by one with errors that name the
/// field: a missing one, a wrong type, a value out of range, a field the endpoint does not know.
struct RequestFields {
    /// The largest body a request may carry.
    static let maximumBodySize = 1 << 20

    private let fields: [String: JSONValue]
    /// What the object describes in messages: "the body", "item 3 of the body".
    private let subject: String

    init(_ fields: [String: JSONValue], subject: String = "the body") {
        self.fields = fields
        self.subject = subject
    }

    /// Reads a request's body as one JSON value (a 413 past ``maximumBodySize``, a 400 when it
    /// is not JSON).
    static func body(of request: Request) async throws -> JSONValue {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maximumBodySize)
        } catch is NIOTooManyBytesError {
            throw HTTPError(.contentTooLarge, message: "the body is larger than \(maximumBodySize) bytes")
        }
        guard buffer.readableBytes > 0 else { throw HTTPError(.badRequest, message: "the body is empty; send a JSON object") }
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(buffer.readableBytesView))
        } catch {
            throw HTTPError(.badRequest, message: "the body is not valid JSON")
        }
    }

    /// A request's body as a JSON object whose keys are all among `known`.
    static func object(of request: Request, known: [String]) async throws -> RequestFields {
        try RequestFields(value: try await body(of: request), subject: "the body", known: known)
    }

    /// `value` as a JSON object whose keys are all among `known`.
    init(value: JSONValue, subject: String, known: [String]) throws {
        guard case .object(let fields) = value else {
            throw HTTPError(.badRequest, message: "\(subject) must be a JSON object, not \(value.kind)")
        }
        if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
            throw HTTPError(.badRequest, message: "\(subject) has the field '\(unknown)', which is not one of \(known.joined(separator: ", "))")
        }
        self.init(fields, subject: subject)
    }

    private func missing(_ name: String) -> HTTPError {
        HTTPError(.badRequest, message: "\(subject) is missing the field '\(name)'")
    }

    private func wrongType(_ name: String, _ value: JSONValue, expected: String) -> HTTPError {
        HTTPError(.badRequest, message: "the field '\(name)' must be \(expected), not \(value.kind)")
    }

    /// A text field; nil when absent (and `required` is false).
    func string(_ name: String, required: Bool = false) throws -> String? {
        guard let value = fields[name] else { if required { throw missing(name) } else { return nil } }
        guard case .string(let text) = value else { throw wrongType(name, value, expected: "text") }
        return text
    }

    /// An integer field; nil when absent (and `required` is false).
    func integer(_ name: String, required: Bool = false) throws -> Int64? {
        guard let value = fields[name] else { if required { throw missing(name) } else { return nil } }
        guard case .integer(let number) = value else { throw wrongType(name, value, expected: "a whole number") }
        return number
    }

    /// A number field (whole or not); nil when absent.
    func number(_ name: String) throws -> Double? {
        switch fields[name] {
        case nil: return nil
        case .integer(let number): return Double(number)
        case .number(let number): return number
        case let value?: throw wrongType(name, value, expected: "a number")
        }
    }

    /// A true-or-false field; nil when absent.
    func bool(_ name: String) throws -> Bool? {
        switch fields[name] {
        case nil: return nil
        case .bool(let flag): return flag
        case let value?: throw wrongType(name, value, expected: "true or false")
        }
    }

    /// An integer field that may be null: `.some(nil)` for null, nil when absent.
    func optionalInteger(_ name: String) throws -> Int64?? {
        switch fields[name] {
        case nil: return nil
        case .null: return .some(nil)
        case .integer(let number): return .some(number)
        case let value?: throw wrongType(name, value, expected: "a whole number or null")
        }
    }
}
