import Foundation
import Hummingbird
import Strata

/// `/dogs`: list (paged, by nickname), create (optionally with a master, by `personID`), and the
/// live list (see ``LiveDogs``).
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
            try reader.fetchAll(From<Dog>().orderBy(.ascending(\.nickname), .ascending(\.createdAt)).tweak(paging.apply)).map(Dog.Snapshot.init)
        }
        return try APIJSON.response(dogs)
    }

    /// `POST /dogs`: a `Patch<Dog>`, its `master` a person's `personID` (a 404 when nobody has
    /// it). A dog's weight and years cannot be negative.
    private func create(_ request: Request) async throws -> Response {
        let patch = try await RequestBody.decode(Patch<Dog>.self, from: request)
        if case .set(let weight) = patch.weight, weight < 0 {
            throw HTTPError(.badRequest, message: "the field 'weight' must be a number from 0, not \(weight)")
        }
        if case .set(let years) = patch.years, years < 0 {
            throw HTTPError(.badRequest, message: "the field 'years' must be a whole number from 0, not \(years)")
        }
        let created = try await stack.perform { transaction in Dog.Snapshot(try patch.create(in: transaction)) }
        return try APIJSON.response(created, status: .created)
    }
}
