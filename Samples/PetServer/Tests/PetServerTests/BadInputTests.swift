import Foundation
import Testing

/// Every bad request is a 4xx whose message names what is wrong, and leaves the store as it was.
@Suite("Bad input at the edge")
struct BadInputTests {
    let server: ServerProcess
    let client: HTTPClient

    init() throws {
        server = try ServerProcess(database: try TestBackend.newDatabase())
        client = HTTPClient(baseURL: server.baseURL)
    }

    /// What the store holds, as the API lists it.
    private func everything() async throws -> String {
        let people = try await client.get("/people")
        let dogs = try await client.get("/dogs")
        return String(decoding: people.body, as: UTF8.self) + String(decoding: dogs.body, as: UTF8.self)
    }

    /// Sends a bad request and checks its answer and that nothing changed.
    private func expectRefused(_ method: String, _ path: String, body: String?, status: Int, message: String,
                               sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let before = try await everything()
        let answer = try await client.send(method, path, body: body.map { Data($0.utf8) })
        #expect(answer.status == status, sourceLocation: sourceLocation)
        #expect(answer.errorMessage == message, sourceLocation: sourceLocation)
        #expect(try await everything() == before, "the store changed", sourceLocation: sourceLocation)
    }

    private func seed() async throws {
        #expect(try await client.post("/people", json: ["personID": 1, "name": "Ada"]).status == 201)
        #expect(try await client.post("/dogs", json: ["nickname": "Rex", "master": 1]).status == 201)
    }

    @Test func malformedJSON() async throws {
        try await seed()
        try await expectRefused("POST", "/people", body: #"{"personID": 2,"#, status: 400, message: "the body is not valid JSON")
        try await expectRefused("POST", "/dogs", body: "", status: 400, message: "the body is empty; send JSON")
        try await expectRefused("POST", "/people", body: "[1, 2]", status: 400, message: "the body must be a JSON object, found an array")
        try await expectRefused("POST", "/people/import", body: #"{"personID": 2}"#, status: 400,
                                message: "the body must be a JSON array of people")
    }

    @Test func wrongTypes() async throws {
        try await seed()
        try await expectRefused("POST", "/people", body: #"{"personID": "two"}"#, status: 400,
                                message: "the field 'personID' must be a whole number from -9223372036854775808 to 9223372036854775807, found text")
        try await expectRefused("POST", "/people", body: #"{"personID": 2.5}"#, status: 400,
                                message: "the field 'personID' must be a whole number from -9223372036854775808 to 9223372036854775807, found 2.5")
        try await expectRefused("POST", "/dogs", body: #"{"weight": "heavy"}"#, status: 400,
                                message: "the field 'weight' must be a number, found text")
        try await expectRefused("PATCH", "/people/1", body: #"{"isActive": "yes"}"#, status: 400,
                                message: "the field 'isActive' must be true or false, found text")
        try await expectRefused("POST", "/dogs", body: #"{"master": true}"#, status: 400,
                                message: "the field 'master' must be a whole number from -9223372036854775808 to 9223372036854775807, found true")
        try await expectRefused("POST", "/dogs", body: #"{"weight": "heavy", "years": 1.5, "colour": "brown"}"#, status: 400,
                                message: "the field 'colour' is not a field of Dog (its fields are nickname, species, weight, years, createdAt, master); "
                                    + "the field 'weight' must be a number, found text; "
                                    + "the field 'years' must be a whole number from -9223372036854775808 to 9223372036854775807, found 1.5")
        try await expectRefused("POST", "/dogs", body: #"{"weight": -3}"#, status: 400,
                                message: "the field 'weight' must be a number from 0, not -3.0")
        try await expectRefused("POST", "/people/import", body: #"[{"personID": 3, "name": 5}]"#, status: 400,
                                message: "the field 'name' of a Person cannot be imported: expected text, found 5")
    }

    @Test func missingAndUnknownFields() async throws {
        try await seed()
        try await expectRefused("POST", "/people", body: #"{"name": "Bob"}"#, status: 400, message: "the field 'personID' is missing")
        try await expectRefused("POST", "/people/import", body: #"[{"personID": 3}, {"name": "Bob"}]"#, status: 400,
                                message: "item 1 of the body is missing the field 'personID'")
        try await expectRefused("POST", "/dogs", body: #"{"nickname": "Rex", "colour": "brown"}"#, status: 400,
                                message: "the field 'colour' is not a field of Dog (its fields are nickname, species, weight, years, createdAt, master)")
    }

    @Test func unknownIDs() async throws {
        try await seed()
        try await expectRefused("GET", "/people/99", body: nil, status: 404, message: "no person has the personID 99")
        try await expectRefused("PATCH", "/people/99", body: #"{"name": "Bob"}"#, status: 404, message: "no person has the personID 99")
        try await expectRefused("DELETE", "/people/99", body: nil, status: 404, message: "no person has the personID 99")
        try await expectRefused("POST", "/dogs", body: #"{"nickname": "Rex", "master": 99}"#, status: 404,
                                message: "the field 'master' names no Person with the personID 99")
        try await expectRefused("GET", "/people/ada", body: nil, status: 400, message: "'ada' is not a personID; a personID is a whole number")
        try await expectRefused("GET", "/people?limit=0", body: nil, status: 400,
                                message: "the query parameter 'limit' must be a whole number from 1 to 1000, not '0'")
        try await expectRefused("GET", "/dogs?offset=-1", body: nil, status: 400,
                                message: "the query parameter 'offset' must be a whole number from 0, not '-1'")
    }

    @Test func aUniqueClash() async throws {
        try await seed()
        try await expectRefused("POST", "/people", body: #"{"personID": 1, "name": "Another"}"#, status: 409,
                                message: "a person with the personID 1 exists already")
    }

    @Test func anOversizedBody() async throws {
        try await seed()
        let name = String(repeating: "a", count: 1 << 20)
        try await expectRefused("POST", "/people", body: #"{"personID": 2, "name": "\#(name)"}"#, status: 413,
                                message: "the body is larger than 1048576 bytes")
    }
}
