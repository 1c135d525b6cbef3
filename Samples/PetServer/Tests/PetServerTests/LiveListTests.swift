import Foundation
import Testing

/// `GET /dogs/live`: the current list first, then each change, including those another server
/// process committed to the same database.
@Suite("The live list of dogs", .timeLimit(.minutes(2)))
struct LiveListTests {
    /// The next event, which must be named `name`; its data as a dictionary (or, for `list`, an
    /// array wrapped under "dogs").
    private func next(_ events: inout AsyncStream<ServerEvent>.Iterator, _ name: String,
                      sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: Any] {
        let event = try #require(await events.next(), "the stream ended", sourceLocation: sourceLocation)
        #expect(event.name == name, sourceLocation: sourceLocation)
        if let dogs = event.data as? [[String: Any]] { return ["dogs": dogs] }
        return try #require(event.data as? [String: Any], sourceLocation: sourceLocation)
    }

    @Test func theStreamStartsWithTheListThenSendsEachChange() async throws {
        let server = try ServerProcess(database: try TestBackend.newDatabase())
        let client = HTTPClient(baseURL: server.baseURL)
        #expect(try await client.post("/people", json: ["personID": 1, "name": "Ada"]).status == 201)
        #expect(try await client.post("/dogs", json: ["nickname": "Max", "master": 1]).status == 201)
        #expect(try await client.post("/dogs", json: ["nickname": "Bella"]).status == 201)

        let stream = EventStream(url: server.baseURL.appendingPathComponent("dogs/live"))
        defer { stream.close() }
        var events = stream.events.makeAsyncIterator()
        let list = try await next(&events, "list")
        #expect((list["dogs"] as? [[String: Any]])?.map { $0["nickname"] as? String } == ["Bella", "Max"])

        #expect(try await client.post("/dogs", json: ["nickname": "Charlie", "species": "beagle"]).status == 201)
        let inserted = try await next(&events, "inserted")
        #expect(inserted["index"] as? Int == 1)
        #expect((inserted["dog"] as? [String: Any])?["nickname"] as? String == "Charlie")
        #expect((inserted["dog"] as? [String: Any])?["species"] as? String == "beagle")

        // Deleting Ada deletes Max, the last in the list.
        let maxID = try #require((list["dogs"] as? [[String: Any]])?.last?["objectID"] as? Int)
        #expect(try await client.delete("/people/1").status == 204)
        let deleted = try await next(&events, "deleted")
        #expect(deleted["index"] as? Int == 2)
        #expect(deleted["objectID"] as? Int == maxID)
    }

    /// Two server processes on one database (one PostgreSQL database, or one SQLite file): each
    /// dog created through the first reaches a client of the second's stream. Measured from
    /// before the POST to the event's arrival, over 20 dogs.
    @Test func aDogCreatedThroughOneServerReachesAClientOfTheOther() async throws {
        let database = try TestBackend.newDatabase()
        let first = try ServerProcess(database: database)
        let second = try ServerProcess(database: database, folder: first.folder)
        let client = HTTPClient(baseURL: first.baseURL)
        let stream = EventStream(url: second.baseURL.appendingPathComponent("dogs/live"))
        defer { stream.close() }
        var events = stream.events.makeAsyncIterator()
        _ = try await next(&events, "list")
        var latencies: [Duration] = []
        for index in 0..<20 {
            let nickname = "dog \(index < 10 ? "0" : "")\(index)"
            let start = ContinuousClock.now
            #expect(try await client.post("/dogs", json: ["nickname": nickname]).status == 201)
            let inserted = try await next(&events, "inserted")
            latencies.append(ContinuousClock.now - start)
            #expect(inserted["index"] as? Int == index)
            #expect((inserted["dog"] as? [String: Any])?["nickname"] as? String == nickname)
        }
        latencies.sort()
        let median = latencies[latencies.count / 2]
        print("PetServer: a dog created through one server reached the other's stream in \(median) at the median, \(latencies.last!) at most"
              + " (\(TestBackend.isPostgreSQL ? "PostgreSQL" : "SQLite"))")
        #expect(median <= .milliseconds(250))
    }
}
