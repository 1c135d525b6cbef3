import Foundation
import Strata
import StrataSyncCore
import StrataSyncServer
import Testing

/// Bad input is a 4xx whose message names what was wrong, and nothing of the batch is applied.
@Suite @MainActor struct SyncBadInputTests {
    nonisolated static let stamp = SyncTimestamp(milliseconds: 1_000, counter: 0, node: "tester")
    nonisolated static let card = GlobalID.make(milliseconds: 1_000)

    nonisolated static func change(_ entity: String = "Card", _ edit: (inout SyncedObject) -> Void) -> SyncChange {
        var state = SyncedObject()
        edit(&state)
        return SyncChange(entity: entity, id: card, state: state)
    }

    nonisolated static let good = change { $0.set("title", to: .text("fine"), at: stamp) }

    nonisolated static func request(_ path: String = "/Planner/push", method: String = "POST", json: String) -> SyncHTTPRequest {
        SyncHTTPRequest(method: method, path: path, authorization: "Bearer t-alice", body: Array(json.utf8))
    }

    /// Each bad request, its status and its exact message.
    nonisolated static let cases: [(String, SyncHTTPRequest, Int, String)] = [
        ("wrong content", request("/Elsewhere/push", json: "{}"), 404, "no content named 'Elsewhere'; this server serves 'Planner'"),
        ("no endpoint", request("/Planner/sync", json: "{}"), 404,
         "no sync endpoint at '/Planner/sync'; the endpoints are /Planner/push and /Planner/pull"),
        ("wrong method", request(method: "GET", json: ""), 405, "'/Planner/push' takes POST, not GET"),
        ("not JSON", request(json: "{\"format\": 1,"), 400,
         "the body is not a valid PushRequest: The given data was not valid JSON"),
        ("missing field", request(json: "{\"format\": 1, \"client\": \"c\", \"model\": \"Planner\", \"version\": \"V1\", \"changes\": []}"), 400,
         "the body is not a valid PushRequest: the field 'batch' is missing"),
        ("other format", push(token: "t-alice", changes: []).withFormat(2), 400,
         "this server speaks sync format 1, and the client sent format 2"),
        ("other model", push(token: "t-alice", model: "Shop", changes: [good]), 400, "this server syncs the model 'Planner', not 'Shop'"),
        ("not a lock", push(token: "t-alice", lock: "Card=1", changes: [good]), 400,
         "the field 'lock' is not a version lock (Entity:word,word,word,word;...)"),
        ("another lock", push(token: "t-alice", lock: "Board:1,2,3,4;Card:1,2,3,4", changes: [good]), 426,
         "sync refused: this device's model version V1 cannot sync with the server's V1: the device's V1 is not the V1 the server sealed: "
            + "the entities Board, Card, Memo, Scratch, Tag differ; a version must never change once an app with it has shipped"),
        ("unknown version", push(token: "t-alice", version: "V7", changes: [good]), 426,
         "sync refused: this device's model version V7 cannot sync with the server's V1: the server's model Planner has no version V7 (it has V1); "
            + "a device whose app is newer than the server syncs once the server runs its version"),
        ("too many", push(token: "t-alice", changes: Array(repeating: good, count: 1_001)), 400, "a push holds at most 1000 changes, not 1001"),
        ("unknown entity", push(token: "t-alice", changes: [good, change("Nope") { $0.set("x", to: .null, at: stamp) }]), 422,
         "change 1 (\(card)): the entity 'Nope' is not synced in Planner V1; nothing of the batch was applied"),
        ("unsynced entity", push(token: "t-alice", changes: [change("Scratch") { $0.set("text", to: .text("x"), at: stamp) }]), 422,
         "change 0 (\(card)): the entity 'Scratch' is not synced in Planner V1; nothing of the batch was applied"),
        ("unknown attribute", push(token: "t-alice", changes: [good, change { $0.set("colour", to: .text("red"), at: stamp) }]), 422,
         "change 1 (\(card)): the entity 'Card' has no synced attribute or relationship named 'colour'; nothing of the batch was applied"),
        ("wrong type", push(token: "t-alice", changes: [change { $0.set("title", to: .integer(3), at: stamp) }]), 422,
         "change 0 (\(card)): 'Card.title' must be text (String), not a whole number; nothing of the batch was applied"),
        ("null required", push(token: "t-alice", changes: [change { $0.set("done", to: .null, at: stamp) }]), 422,
         "change 0 (\(card)): 'Card.done' must not be null; nothing of the batch was applied"),
        ("bool range", push(token: "t-alice", changes: [change { $0.set("done", to: .integer(2), at: stamp) }]), 422,
         "change 0 (\(card)): 'Card.done' must be 0 or 1 (a Bool), not 2; nothing of the batch was applied"),
        ("bad reference", push(token: "t-alice", changes: [change { $0.set("board", to: .text("not-an-id"), at: stamp) }]), 422,
         "change 0 (\(card)): 'Card.board' must be a global ID or null, not text; nothing of the batch was applied"),
        ("counter as attribute", push(token: "t-alice", changes: [change("Board") { $0.set("views", to: .integer(3), at: stamp) }]), 422,
         "change 0 (\(card)): 'Board.views' is a counter (merge: add); send it under 'counters'; nothing of the batch was applied"),
        ("attribute as counter", push(token: "t-alice", changes: [change { $0.add(1, to: "title", by: "tester") }]), 422,
         "change 0 (\(card)): 'Card.title' is not a counter; send it under 'attributes'; nothing of the batch was applied"),
        ("set member", push(token: "t-alice", changes: [change { $0.insert("x", into: "tags", at: stamp) }]), 422,
         "change 0 (\(card)): 'Card.tags' names 'x', which is not a global ID; nothing of the batch was applied"),
        ("bad pull", request("/Planner/pull", json: "{\"format\":1,\"client\":\"c\",\"model\":\"Planner\",\"version\":\"V1\",\"after\":-3,\"limit\":5}"), 400,
         "the field 'after' must be at least 0, not -3"),
        ("count not a Bool", request("/Planner/pull", json: "{\"format\":1,\"client\":\"c\",\"model\":\"Planner\",\"version\":\"V1\",\"after\":0,\"limit\":5,\"count\":\"yes\"}"),
         400, "the body is not a valid PullRequest: Expected to decode Bool but found a string instead at 'count'"),
    ]

    @Test(arguments: 0..<cases.count)
    func aBadRequestIsRefusedWithItsReasonAndChangesNothing(_ index: Int) async throws {
        let (name, request, status, message) = Self.cases[index]
        let world = try await SyncWorld.make()
        try await world.serverStack.perform { transaction in
            transaction.create(Into<Card>()).title = "before"
        }
        let answer = await world.server.respond(to: request)
        #expect(answer.status == status, "\(name)")
        #expect(answer.errorMessage == message, "\(name)")
        #expect(try world.serverStack.fetchAll(From<Card>()).map(\.title) == ["before"], "\(name)")
    }

    @Test func aBodyOverTheLimitIsRefused() async throws {
        let world = try await SyncWorld.make()
        let answer = await world.server.respond(to: Self.request(json: String(repeating: " ", count: SyncLimits.requestBytes + 1)))
        #expect(answer.status == 413)
        #expect(answer.errorMessage == "the body holds 8388609 bytes; a sync request holds at most 8388608")
    }
}

extension SyncHTTPRequest {
    /// The same request with its JSON's `format` replaced.
    func withFormat(_ format: Int) -> SyncHTTPRequest {
        var copy = self
        let text = String(decoding: body, as: UTF8.self).replacingOccurrences(of: "\"format\":1", with: "\"format\":\(format)")
        copy.body = Array(text.utf8)
        return copy
    }
}
