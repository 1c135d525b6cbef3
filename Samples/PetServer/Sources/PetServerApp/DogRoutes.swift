import Foundation
import Hummingbird
import Strata

/// `/dogs`: list (paged, by nickname), create (optionally with a master's `personID`), and the live
/// list (see ``LiveDogs``).
struct DogRoutes: Sendable {
    let stack: DataStack
    let live: LiveDogs

    func add(to router: Router<BasicRequestContext>) {
        let dogs = router.group("dogs")
        dogs.get { request, _ in try await list(request) }
        dogs.post { request, _ in try await create(request) }
        dogs.get("live") { _, _ in try await live.response() }
    }

    /// `GET /dogs?offset=&limit=`: dogs by nickname, then by when they were created.
    private func list(_ request: Request) async throws -> Response {
        let paging = try Paging(request)
        let dogs = try await stack.read { reader in
            try reader.fetchAll(From<Dog>().orderBy(.ascending(\.nickname), .ascending(\.createdAt)).tweak(paging.apply)).map(DogJSON.init)
        }
        return try APIJSON.response(dogs)
    }

    /// `POST /dogs`: `nickname`, `species`, `weight`, `years`, and `personID` for a master.
    private func create(_ request: Request) async throws -> Response {
        let fields = try await RequestFields.object(of: request, known: ["nickname", "species", "weight", "years", "personID"])
        let nickname = try fields.string("nickname")
        let species = try fields.string("species")
        let weight = try fields.number("weight")
        let years = try fields.integer("years")
        let master = try fields.optionalInteger("personID") ?? nil
        if let weight, weight < 0 || !weight.isFinite {
            throw HTTPError(.badRequest, message: "the field 'weight' must be a number from 0, not \(weight)")
        }
        guard let years = years.map(Int.init(exactly:)) ?? 0, years >= 0 else {
            throw HTTPError(.badRequest, message: "the field 'years' must be a whole number from 0")
        }
        let created = try await stack.perform { transaction -> DogJSON in
            let dog = transaction.create(Into<Dog>())
            if let master {
                guard let person = try transaction.fetchOne(From<Person>().where(\.personID == master)) else {
                    throw HTTPError(.notFound, message: "no person has the personID \(master)")
                }
                dog.master = person
            }
            if let nickname { dog.nickname = nickname }
            if let species { dog.species = species }
            if let weight { dog.weight = weight }
            dog.years = years
            return DogJSON(dog)
        }
        return try APIJSON.response(created, status: .created)
    }
}
