import Foundation
import Testing

/// The JSON API as a client uses it, against a server process on the test backend.
@Suite("The JSON API")
struct APITests {
    let server: ServerProcess
    let client: HTTPClient

    init() throws {
        server = try ServerProcess(database: try TestBackend.newDatabase())
        client = HTTPClient(baseURL: server.baseURL)
    }

    @Test func peopleAreCreatedReadChangedAndDeletedWithTheirDogs() async throws {
        let created = try await client.post("/people", json: ["personID": 7, "name": "Ada"])
        #expect(created.status == 201)
        let person = try #require(try created.json() as? [String: Any])
        #expect(person["personID"] as? Int == 7)
        #expect(person["name"] as? String == "Ada")
        #expect(person["isActive"] as? Bool == true)
        #expect(person["createdAt"] is String)
        #expect(person["objectID"] is Int)

        let dog = try await client.post("/dogs", json: ["nickname": "Rex", "species": "terrier", "weight": 8.5, "years": 3, "master": 7])
        #expect(dog.status == 201)
        let dogID = try #require((try dog.json() as? [String: Any])?["objectID"] as? Int)

        let changed = try await client.patch("/people/7", json: ["name": "Ada L.", "isActive": false])
        #expect(changed.status == 200)
        let read = try #require(try await client.get("/people/7").json() as? [String: Any])
        let readPerson = try #require(read["person"] as? [String: Any])
        #expect(readPerson["name"] as? String == "Ada L.")
        #expect(readPerson["isActive"] as? Bool == false)
        let dogs = try #require(read["dogs"] as? [[String: Any]])
        #expect(dogs.count == 1)
        #expect(dogs.first?["objectID"] as? Int == dogID)
        #expect(dogs.first?["nickname"] as? String == "Rex")
        #expect(dogs.first?["species"] as? String == "terrier")
        #expect(dogs.first?["weight"] as? Double == 8.5)
        #expect(dogs.first?["years"] as? Int == 3)
        #expect(dogs.first?["master"] as? Int == 7, "the master by its unique personID")

        // A dog with no master stays when a person is deleted; the person's dogs go with them.
        #expect(try await client.post("/dogs", json: ["nickname": "Stray"]).status == 201)
        let deleted = try await client.delete("/people/7")
        #expect(deleted.status == 204)
        #expect(try await client.get("/people/7").status == 404)
        let left = try #require(try await client.get("/dogs").json() as? [[String: Any]])
        #expect(left.map { $0["nickname"] as? String } == ["Stray"])
        #expect(left.first?["master"] == nil)
    }

    @Test func listsArePagedAndFilteredByName() async throws {
        for id in 1...12 {
            #expect(try await client.post("/people", json: ["personID": id, "name": id % 3 == 0 ? "Maria \(id)" : "Tom \(id)"]).status == 201)
        }
        let page = try #require(try await client.get("/people?offset=4&limit=3").json() as? [[String: Any]])
        #expect(page.map { $0["personID"] as? Int } == [5, 6, 7])
        let marias = try #require(try await client.get("/people?name=maria").json() as? [[String: Any]])
        #expect(marias.map { $0["personID"] as? Int } == [3, 6, 9, 12])
        let all = try #require(try await client.get("/people").json() as? [[String: Any]])
        #expect(all.count == 12)

        for name in ["Cleo", "Ace", "Bo"] { #expect(try await client.post("/dogs", json: ["nickname": name]).status == 201) }
        let dogs = try #require(try await client.get("/dogs?limit=2").json() as? [[String: Any]])
        #expect(dogs.map { $0["nickname"] as? String } == ["Ace", "Bo"])
    }

    @Test func importingTwiceUpdatesThePeopleItCreatedAndTheirDogs() async throws {
        let batch: [[String: Any]] = [
            ["personID": 1, "name": "Ada", "pets": [["nickname": "Rex", "species": "terrier", "weight": 8.5, "years": 3]]],
            ["personID": 2, "name": "Bob", "isActive": false],
        ]
        let first = try await client.post("/people/import", json: batch)
        #expect(first.status == 200)
        #expect((try first.json() as? [[String: Any]])?.map { $0["personID"] as? Int } == [1, 2])

        var again = batch
        again[0]["name"] = "Ada Lovelace"
        #expect(try await client.post("/people/import", json: again).status == 200)
        let people = try #require(try await client.get("/people").json() as? [[String: Any]])
        #expect(people.map { $0["name"] as? String } == ["Ada Lovelace", "Bob"])
        #expect(people.map { $0["isActive"] as? Bool } == [true, false])
        let ada = try #require(try await client.get("/people/1").json() as? [String: Any])
        #expect((ada["dogs"] as? [[String: Any]])?.map { $0["nickname"] as? String } == ["Rex"])
    }

    /// The document a client (or schemathesis, in CI) reads: the model's generated components
    /// and the server's paths.
    @Test func theOpenAPIDocumentDescribesTheRoutesWithTheGeneratedSchemas() async throws {
        let answer = try await client.get("/openapi.json")
        #expect(answer.status == 200)
        let document = try #require(try answer.json() as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        #expect(Set(schemas.keys).isSuperset(of: ["Person", "PersonPatch", "Dog", "DogPatch", "Error"]))
        let paths = try #require(document["paths"] as? [String: Any])
        #expect(Set(paths.keys) == ["/people", "/people/import", "/people/{personID}", "/dogs", "/dogs/live"])
        let dog = try #require(schemas["Dog"] as? [String: Any])
        #expect((dog["properties"] as? [String: Any])?["master"] != nil)
    }
}
