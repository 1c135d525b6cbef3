import Foundation
import Hummingbird
import Strata

/// `/people`: list (paged, filtered by name), read one with their dogs, create, change, delete
/// (which deletes their dogs), and import a JSON array uniqued by `personID`.
struct PeopleRoutes: Sendable {
    let stack: DataStack

    func add(to router: Router<BasicRequestContext>) {
        let people = router.group("people")
        people.get { request, _ in try await list(request) }
        people.post { request, _ in try await create(request) }
        people.post("import") { request, _ in try await importPeople(request) }
        people.get(":personID") { _, context in try await read(try personID(context)) }
        people.patch(":personID") { request, context in try await change(try personID(context), request) }
        people.delete(":personID") { _, context in try await delete(try personID(context)) }
    }

    private func personID(_ context: BasicRequestContext) throws -> Int64 {
        let text = context.parameters.get("personID") ?? ""
        guard let id = Int64(text) else {
            throw HTTPError(.badRequest, message: "'\(text)' is not a personID; a personID is a whole number")
        }
        return id
    }

    private static func notFound(_ id: Int64) -> HTTPError {
        HTTPError(.notFound, message: "no person has the personID \(id)")
    }

    /// `GET /people?offset=&limit=&name=`: people by `personID`; `name` keeps those whose name
    /// contains it, ignoring case.
    private func list(_ request: Request) async throws -> Response {
        let paging = try Paging(request)
        let name = request.uri.queryParameters["name"].map(String.init)
        let people = try await stack.read { reader in
            var fetch = From<Person>().orderBy(.ascending(\.personID)).tweak(paging.apply)
            if let name, !name.isEmpty { fetch = fetch.where(.contains(\.name, name, caseInsensitive: true)) }
            return try reader.fetchAll(fetch).map(Person.Snapshot.init)
        }
        return try APIJSON.response(people)
    }

    /// `GET /people/{personID}`: the person and their dogs.
    private func read(_ id: Int64) async throws -> Response {
        let found = try await stack.read { reader -> PersonWithDogs? in
            guard let person = try reader.fetchOne(From<Person>().where(\.personID == id)) else { return nil }
            let dogs = person.pets.map(Dog.Snapshot.init).sorted { $0.objectID.rowID < $1.objectID.rowID }
            return PersonWithDogs(person: Person.Snapshot(person), dogs: dogs)
        }
        guard let found else { throw Self.notFound(id) }
        return try APIJSON.response(found)
    }

    /// `POST /people`: a `Patch<Person>`, whose `personID` the model requires; a `personID`
    /// another person has is a 409.
    private func create(_ request: Request) async throws -> Response {
        let patch = try await RequestBody.decode(Patch<Person>.self, from: request)
        let created = try await stack.perform { transaction -> Person.Snapshot in
            if case .set(let id) = patch.personID, try transaction.fetchCount(From<Person>().where(\.personID == id)) > 0 {
                throw HTTPError(.conflict, message: "a person with the personID \(id) exists already")
            }
            return Person.Snapshot(try patch.create(in: transaction))
        }
        return try APIJSON.response(created, status: .created)
    }

    /// `PATCH /people/{personID}`: a `Patch<Person>`, the fields given changed.
    private func change(_ id: Int64, _ request: Request) async throws -> Response {
        let patch = try await RequestBody.decode(Patch<Person>.self, from: request)
        let changed = try await stack.perform { transaction -> Person.Snapshot in
            guard let person = try transaction.fetchOne(From<Person>().where(\.personID == id)) else { throw Self.notFound(id) }
            if case .set(let newID) = patch.personID, newID != id,
               try transaction.fetchCount(From<Person>().where(\.personID == newID)) > 0 {
                throw HTTPError(.conflict, message: "a person with the personID \(newID) exists already")
            }
            try patch.apply(to: person)
            return Person.Snapshot(person)
        }
        return try APIJSON.response(changed)
    }

    /// `DELETE /people/{personID}`: the person and (by the model's cascade rule) their dogs.
    private func delete(_ id: Int64) async throws -> Response {
        try await stack.perform { transaction in
            guard let person = try transaction.fetchOne(From<Person>().where(\.personID == id)) else { throw Self.notFound(id) }
            transaction.delete(person)
        }
        return Response(status: .noContent)
    }

    /// `POST /people/import`: a JSON array of people as the model's `import:` block reads them
    /// (`personID`, `name`, `isActive`, `pets`: an array of dogs), through the generated
    /// importer: a person whose `personID` exists is updated, the others are created. Each item
    /// must give its `personID`. Answers the imported people.
    private func importPeople(_ request: Request) async throws -> Response {
        let sources = try await RequestBody.decode([Person.ImportPayload].self, from: request, described: "a JSON array of people")
        if let index = sources.firstIndex(where: { $0.personID == nil }) {
            throw HTTPError(.badRequest, message: "item \(index) of the body is missing the field 'personID'")
        }
        let imported = try await stack.perform { transaction -> [Person.Snapshot] in
            try transaction.importUniqueObjects(Into<Person>(), sourceArray: sources).map(Person.Snapshot.init)
        }
        return try APIJSON.response(imported)
    }
}

/// A person with their dogs, for `GET /people/{personID}`: two generated snapshots.
struct PersonWithDogs: Codable, Sendable {
    var person: Person.Snapshot
    var dogs: [Dog.Snapshot]
}
