import Foundation
import StrataSyncCore
import Testing

/// The protocol's messages: their JSON, as the documentation shows it, and every refusal's words.
@Suite("Sync messages")
struct SyncMessageTests {
    static let dog = GlobalID("0193a0b2-5c1e-7d3a-9f00-1b2c3d4e5f60")!

    @Test func theDocumentedPushReads() throws {
        let text = #"""
        {"format": 1, "client": "c-1", "model": "PetServer", "version": "V1", "batch": 4,
         "changes": [{"entity": "Dog", "id": "0193a0b2-5c1e-7d3a-9f00-1b2c3d4e5f60",
                      "state": {"attributes": {"nickname": {"value": "Rex", "stamp": "1733380000000.0@c-1"}}}}]}
        """#
        let push = try JSONDecoder().decode(PushRequest.self, from: Data(text.utf8))
        try push.validate()
        var expected = SyncedObject()
        expected.set("nickname", to: .text("Rex"), at: SyncTimestamp(milliseconds: 1_733_380_000_000, counter: 0, node: "c-1"))
        #expect(push == PushRequest(client: "c-1", model: "PetServer", version: "V1", batch: 4,
                                    changes: [SyncChange(entity: "Dog", id: Self.dog, state: expected)]))
        #expect(try JSONDecoder().decode(PushRequest.self, from: JSONEncoder().encode(push)) == push)
    }

    @Test func aPageReadsBack() throws {
        let clock = SyncTimestamp(milliseconds: 5, counter: 0, node: "server")
        var state = SyncedObject()
        state.delete(at: clock)
        let page = PullResponse(entries: [.init(sequence: 9, change: SyncChange(entity: "Dog", id: Self.dog, state: state))],
                                checkpoint: 9, remaining: 120, clock: clock, epoch: "e1", account: "alice")
        #expect(try JSONDecoder().decode(PullResponse.self, from: JSONEncoder().encode(page)) == page)
        #expect(try JSONDecoder().decode(PushResponse.self, from: JSONEncoder().encode(PushResponse(applied: 4, clock: clock, epoch: "e1", account: "alice"))).applied == 4)
    }

    @Test func everyRefusalSaysWhy() {
        let changes = Array(repeating: SyncChange(entity: "Dog", id: Self.dog, state: SyncedObject()), count: SyncLimits.changesPerPush + 1)
        var future = PushRequest(client: "c-1", model: "M", version: "V1", batch: 1, changes: [])
        future.format = 2
        let cases: [(() throws(SyncProtocolError) -> Void, String)] = [
            ({ () throws(SyncProtocolError) in try future.validate() }, "this server speaks sync format 1, and the client sent format 2"),
            ({ () throws(SyncProtocolError) in try PushRequest(client: "", model: "M", version: "V1", batch: 1, changes: []).validate() },
             "the field 'client' is empty; each client sends its own ID"),
            ({ () throws(SyncProtocolError) in try PushRequest(client: "c", model: "M", version: "V1", batch: 0, changes: []).validate() },
             "the field 'batch' must be at least 1, not 0"),
            ({ () throws(SyncProtocolError) in try PushRequest(client: "c", model: "M", version: "V1", batch: 1, changes: changes).validate() },
             "a push holds at most 1000 changes, not 1001"),
            ({ () throws(SyncProtocolError) in try PullRequest(client: "c", model: "M", version: "V1", after: -1, limit: 10).validate() },
             "the field 'after' must be at least 0, not -1"),
            ({ () throws(SyncProtocolError) in try PullRequest(client: "c", model: "M", version: "V1", after: 0, limit: 0).validate() },
             "the field 'limit' must be from 1 to 5000, not 0"),
            ({ () throws(SyncProtocolError) in try PullRequest(client: "c", model: "M", version: "V1", after: 0, limit: 5, wait: 30_001).validate() },
             "the field 'wait' must be from 0 to 30000 milliseconds, not 30001"),
        ]
        for (check, message) in cases {
            #expect(throws: SyncProtocolError(message)) { try check() }
        }
    }
}
