import Foundation
@testable import PetServerApp
import Strata
import StrataCloud
import Testing

/// A device whose app still runs the model's V2 keeps syncing with the server at V3: V3 renamed
/// Note.text to body, added Note.pinned and the entity Visit. The V2 device speaks the protocol
/// as its app would, with V2's names and lock.
@Suite("Devices on an older model version")
struct OlderDeviceTests {
    let server: ServerProcess
    let client: HTTPClient
    let v2Lock = PetServer.schemaHistory.version(named: "V2")!.versionLock.metadataText

    init() throws {
        server = try ServerProcess(database: try TestBackend.newDatabase(), arguments: ["--accounts", "alice:t-alice"])
        client = HTTPClient(baseURL: server.baseURL)
    }

    func push(batch: Int, _ changes: [[String: Any]]) async throws -> HTTPAnswer {
        let body: [String: Any] = ["format": 1, "client": "old-phone", "model": "PetServer", "version": "V2", "lock": v2Lock,
                                   "batch": batch, "changes": changes]
        return try await client.send("POST", "/sync/PetServer/push", body: try JSONSerialization.data(withJSONObject: body), token: "t-alice")
    }

    func pull() async throws -> [[String: Any]] {
        let body: [String: Any] = ["format": 1, "client": "old-phone", "model": "PetServer", "version": "V2", "lock": v2Lock, "after": 0, "limit": 100]
        let answer = try await client.send("POST", "/sync/PetServer/pull", body: try JSONSerialization.data(withJSONObject: body), token: "t-alice")
        #expect(answer.status == 200)
        return try #require(try answer.json() as? [String: Any])["entries"] as? [[String: Any]] ?? []
    }

    func noteText(_ text: String, at milliseconds: Int, id: String) -> [String: Any] {
        ["entity": "Note", "id": id, "state": ["attributes": ["text": ["value": text, "stamp": "\(milliseconds).0@old-phone"]]]]
    }

    @Test func aV2DeviceAndAV3DeviceShareNotesEachInItsOwnTerms() async throws {
        let id = UUID().uuidString.lowercased()
        #expect(try await push(batch: 1, [noteText("from V2", at: 1_733_380_000_000, id: id)]).status == 200)

        // The V3 device sees V2's text as body, pins the note and records a visit.
        let stack = DataStack(PetServer.schemaHistory)
        let store = CloudStore(fileURL: FileManager.default.temporaryDirectory.appendingPathComponent("petserver-v3-\(UUID().uuidString).sqlite"),
                               server: server.baseURL.appendingPathComponent("sync"), contentName: "PetServer", account: .bearer("t-alice"),
                               cloudStorageOptions: [.syncOnlyWhenAsked])
        try await stack.addStorage(store)
        try await store.sync()
        let bodies = try await stack.perform { transaction in try transaction.fetchAll(From<Note>()).map(\.body) }
        #expect(bodies == ["from V2"])
        try await stack.perform { transaction in
            try transaction.fetchOne(From<Note>())?.pinned = true
            transaction.create(Into<Visit>()).reason = "check-up"
        }
        try await store.sync()

        // The V2 device pulls V2's names only: text, no pinned, no visit.
        let entries = try await pull()
        let entities = entries.compactMap { ($0["change"] as? [String: Any])?["entity"] as? String }
        #expect(entities == ["Note"])
        let attributes = try #require(((entries.first?["change"] as? [String: Any])?["state"] as? [String: Any])?["attributes"] as? [String: Any])
        #expect(attributes["pinned"] == nil && attributes["body"] == nil)
        #expect((attributes["text"] as? [String: Any])?["value"] as? String == "from V2")

        // Its edit of the text reaches the V3 device as body, and leaves the pin alone.
        #expect(try await push(batch: 2, [noteText("edited on V2", at: 1_733_380_000_001, id: id)]).status == 200)
        try await store.sync()
        let note = try await stack.perform { transaction in try transaction.fetchOne(From<Note>()).map { "\($0.body) \($0.pinned)" } }
        #expect(note == "edited on V2 true")
        await stack.close()
    }

    @Test func aDeviceNewerThanTheServerIsToldToWait() async throws {
        let body: [String: Any] = ["format": 1, "client": "new-phone", "model": "PetServer", "version": "V4", "after": 0, "limit": 10]
        let answer = try await client.send("POST", "/sync/PetServer/pull", body: try JSONSerialization.data(withJSONObject: body), token: "t-alice")
        #expect(answer.status == 426)
        let refusal = try #require(try answer.json() as? [String: Any])
        #expect(refusal["error"] as? String == "sync refused: this device's model version V4 cannot sync with the server's V3: the server's model "
            + "PetServer has no version V4 (it has V1, V2, V3); a device whose app is newer than the server syncs once the server runs its version")
        #expect(refusal["clientVersion"] as? String == "V4")
        #expect(refusal["serverVersion"] as? String == "V3")
    }
}
