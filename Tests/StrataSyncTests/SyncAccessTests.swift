import Foundation
import Strata
import StrataCloud
import StrataSyncCore
import StrataSyncServer
import StrataTestSupport
import Testing

/// The server's access rules: a request needs a valid token, and an account sees and changes only
/// its own objects of owned entities.
@Suite @MainActor struct SyncAccessTests {
    @Test func anAccountSeesOnlyItsOwnObjectsOfAnOwnedEntity() async throws {
        let world = try await SyncWorld.make()
        let (alice, aliceStore) = try await world.device(account: "t-alice")
        let (bob, bobStore) = try await world.device(account: "t-bob")
        try await alice.perform { transaction in
            transaction.create(Into<Memo>()).text = "alice's"
            transaction.create(Into<Board>()).title = "shared"
        }
        try await bob.perform { transaction in
            transaction.create(Into<Memo>()).text = "bob's"
        }
        try await aliceStore.sync()
        try await bobStore.sync()
        try await aliceStore.sync()
        #expect(try alice.fetchAll(From<Memo>()).map(\.text) == ["alice's"])
        #expect(try bob.fetchAll(From<Memo>()).map(\.text) == ["bob's"])
        #expect(try bob.fetchAll(From<Board>()).map(\.title) == ["shared"])
        // The server filled each memo's owner with its account, and the devices learned it.
        let owners = try world.serverStack.fetchAll(From<Memo>()).map { "\($0.text)=\($0.account ?? "nil")" }.sorted()
        #expect(owners == ["alice's=alice", "bob's=bob"])
        #expect(try alice.fetchOne(From<Memo>())?.account == "alice")
    }

    @Test func aTokenCannotChangeAnotherAccountsObject() async throws {
        let world = try await SyncWorld.make()
        let (alice, aliceStore) = try await world.device(account: "t-alice")
        try await alice.perform { transaction in
            transaction.create(Into<Memo>()).text = "private"
        }
        try await aliceStore.sync()
        let page = try await pull(world, token: "t-alice", after: 0)
        let memo = try #require(page.entries.first { $0.change.entity == "Memo" }).change
        var state = SyncedObject()
        state.set("text", to: .text("taken over"), at: SyncTimestamp(milliseconds: Int64.max / 2, counter: 0, node: "bob-phone"))
        let answer = await world.server.respond(to: push(token: "t-bob", changes: [SyncChange(entity: "Memo", id: memo.id, state: state)]))
        #expect(answer.status == 404)
        #expect(answer.errorMessage == "no Memo with the id \(memo.id) is yours to change; nothing of the batch was applied")
        #expect(try world.serverStack.fetchAll(From<Memo>()).map(\.text) == ["private"])
        // Bob's pulls never show it.
        #expect(try await pull(world, token: "t-bob", after: 0).entries.isEmpty)
    }

    @Test func aRequestWithoutAValidTokenIsRefused() async throws {
        let world = try await SyncWorld.make()
        let body = try JSONEncoder().encode(PullRequest(client: "c", model: "Planner", version: "V1", after: 0, limit: 10))
        for path in ["/Planner/pull", "/Planner/push"] {
            let none = await world.server.respond(to: SyncHTTPRequest(method: "POST", path: path, authorization: nil, body: Array(body)))
            #expect(none.status == 401)
            #expect(none.errorMessage == "the request has no bearer token; send 'Authorization: Bearer <token>'")
            let wrong = await world.server.respond(to: SyncHTTPRequest(method: "POST", path: path, authorization: "Bearer nope", body: Array(body)))
            #expect(wrong.status == 401)
            #expect(wrong.errorMessage == "the bearer token is not valid")
        }
    }

    @Test func aClientIDBelongsToOneAccount() async throws {
        let world = try await SyncWorld.make()
        var state = SyncedObject()
        state.set("name", to: .text("x"), at: SyncTimestamp(milliseconds: 1, counter: 0, node: "shared-id"))
        let change = SyncChange(entity: "Tag", id: GlobalID.make(milliseconds: 1), state: state)
        #expect(await world.server.respond(to: push(token: "t-alice", client: "shared-id", changes: [change])).status == 200)
        let answer = await world.server.respond(to: push(token: "t-bob", client: "shared-id", batch: 2, changes: [change]))
        #expect(answer.status == 403)
        #expect(answer.errorMessage == "the client 'shared-id' syncs for another account; a client ID belongs to one account")
    }

    @Test func aRepeatedBatchIsAppliedOnce() async throws {
        let world = try await SyncWorld.make()
        var state = SyncedObject()
        state.add(1, to: "views", by: "phone")
        let change = SyncChange(entity: "Board", id: GlobalID.make(milliseconds: 1), state: state)
        var logged: [Int64] = []
        for round in 0..<3 {
            let answer = await world.server.respond(to: push(token: "t-alice", changes: [change]))
            #expect(answer.status == 200)
            #expect(try JSONDecoder().decode(PushResponse.self, from: Data(answer.body)).applied == 1)
            let sequences = try await pull(world, token: "t-alice", after: 0).entries.map(\.sequence)
            #expect(sequences.count == 1)
            if round == 0 { logged = sequences } else { #expect(sequences == logged) }
        }
        #expect(try world.serverStack.fetchOne(From<Board>())?.views == 1)
    }

    func pull(_ world: SyncWorld, token: String, after: Int64) async throws -> PullResponse {
        let body = try JSONEncoder().encode(PullRequest(client: "reader", model: "Planner", version: "V1", after: after, limit: 100))
        let answer = await world.server.respond(to: SyncHTTPRequest(method: "POST", path: "/Planner/pull", authorization: "Bearer " + token, body: Array(body)))
        try #require(answer.status == 200, "\(answer.errorMessage ?? "")")
        return try JSONDecoder().decode(PullResponse.self, from: Data(answer.body))
    }
}

/// A push request of `changes`.
func push(token: String, client: String = "tester", batch: Int64 = 1, model: String = "Planner", version: String = "V1", lock: String? = nil,
          changes: [SyncChange]) -> SyncHTTPRequest {
    let body = (try? JSONEncoder().encode(PushRequest(client: client, model: model, version: version, lock: lock, batch: batch, changes: changes))) ?? Data()
    return SyncHTTPRequest(method: "POST", path: "/Planner/push", authorization: "Bearer " + token, body: Array(body))
}
