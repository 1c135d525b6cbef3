import Foundation

/// The Codable type the Exact model stores in `jsonPayload` and `binaryPayload`.
struct ExactPayload: Codable, Hashable, Sendable {
    /// A note that makes encoding throw, so tests can see a failed encoding reported.
    static let refusal = "refuse to encode"

    var number: Double
    var when: Date
    var note: String

    struct Refused: Error, CustomStringConvertible {
        var description: String { "this payload refuses to be encoded" }
    }

    func encode(to encoder: any Encoder) throws {
        if note == Self.refusal { throw Refused() }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
        try container.encode(when, forKey: .when)
        try container.encode(note, forKey: .note)
    }
}
