import Foundation
import Hummingbird
import Strata

/// A person as the API returns it: the snapshot's attributes, by the model's names.
struct PersonJSON: Codable, Sendable, Equatable {
    var personID: Int64
    var name: String
    var createdAt: Date
    var isActive: Bool

    init(_ snapshot: Person.Snapshot) {
        personID = snapshot.personID
        name = snapshot.name
        createdAt = snapshot.createdAt
        isActive = snapshot.isActive
    }
}

/// A dog as the API returns it: its row id as `dogID`, the snapshot's attributes, and its
/// master's `personID` (absent when it has none).
struct DogJSON: Codable, Sendable, Equatable {
    var dogID: Int64
    var nickname: String
    var species: String
    var weight: Double
    var years: Int
    var personID: Int64?

    init(_ dog: Dog) {
        let snapshot = Dog.Snapshot(dog)
        dogID = snapshot.objectID.rowID
        nickname = snapshot.nickname
        species = snapshot.species
        weight = snapshot.weight
        years = snapshot.years
        personID = dog.master?.personID
    }
}

/// A person with their dogs, for `GET /people/{personID}`.
struct PersonWithDogsJSON: Codable, Sendable {
    var person: PersonJSON
    var dogs: [DogJSON]
}

/// The one JSON encoding of the API: dates in ISO 8601, keys sorted (so equal values read equal).
enum APIJSON {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    /// `value` encoded as a response with `status`.
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try encoder().encode(value)
        var response = Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                                body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        response.headers[.contentLength] = String(data.count)
        return response
    }

    /// `value` encoded as one line of text (for server-sent events).
    static func line(_ value: some Encodable) throws -> String {
        String(decoding: try encoder().encode(value), as: UTF8.self)
    }
}
