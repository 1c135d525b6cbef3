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
            return try reader.fetchAll(fetch).map { PersonJSON(Person.Snapshot($0)) }
        }
        return try APIJSON.response(people)
    }

    /// `GET /people/{personID}`: the person and their dogs.
    private func read(_ id: Int64) async throws -> Response {
        let found = try await stack.read { reader -> PersonWithDogsJSON? in
            guard let person = try reader.fetchOne(From<Person>().where(\.personID == id)) else { return nil }
            let dogs = person.pets.map(DogJSON.init).sorted { $0.dogID < $1.dogID }
            return PersonWithDogsJSON(person: PersonJSON(Person.Snapshot(person)), dogs: dogs)
        }
        guard let found else { throw Self.notFound(id) }
        return try APIJSON.response(found)
    }

    /// `POST /people`: `personID` (required, unique), `name`, `isActive`.
    private func create(_ request: Request) async throws -> Response {
        let fields = try await RequestFields.object(of: request, known: ["personID", "name", "isActive"])
        guard let id = try fields.integer("personID", required: true) else { throw HTTPError(.badRequest) }
        let name = try fields.string("name")
        let isActive = try fields.bool("isActive")
        let created = try await stack.perform { transaction -> PersonJSON in
            if try transaction.fetchCount(From<Person>().where(\.personID == id)) > 0 {
                throw HTTPError(.conflict, message: "a person with the personID \(id) exists already")
            }
            let person = transaction.create(Into<Person>())
            person.personID = id
            if let name { person.name = name }
            if let isActive { person.isActive = isActive }
            return PersonJSON(Person.Snapshot(person))
        }
        return try APIJSON.response(created, status: .created)
    }

    /// `PATCH /people/{personID}`: changes `name` and `isActive`, those given.
    private func change(_ id: Int64, _ request: Request) async throws -> Response {
        let fields = try await RequestFields.object(of: request, known: ["name", "isActive"])
        let name = try fields.string("name")
        let isActive = try fields.bool("isActive")
        let changed = try await stack.perform { transaction -> PersonJSON in
            guard let person = try transaction.fetchOne(From<Person>().where(\.personID == id)) else { throw Self.notFound(id) }
            if let name { person.name = name }
            if let isActive { person.isActive = isActive }
            return PersonJSON(Person.Snapshot(person))
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

    /// `POST /people/import`: a JSON array of people (`personID`, `name`, `isActive`, `pets`: an
    /// array of dogs), through the model's importer: a person whose `personID` exists is updated,
    /// the others are created. Answers the imported people.
    private func importPeople(_ request: Request) async throws -> Response {
        guard case .array(let items) = try await RequestFields.body(of: request) else {
            throw HTTPError(.badRequest, message: "the body must be a JSON array of people")
        }
        for (index, item) in items.enumerated() {
            let person = try RequestFields(value: item, subject: "item \(index) of the body", known: ["personID", "name", "isActive", "pets"])
            _ = try person.integer("personID", required: true)
        }
        let imported = try await stack.perform { transaction -> [PersonJSON] in
            let source = items.compactMap { $0.foundationValue as? [String: Any] }
            return try transaction.importUniqueObjects(Into<Person>(), sourceArray: source).map { PersonJSON(Person.Snapshot($0)) }
        }
        return try APIJSON.response(imported)
    }
}
