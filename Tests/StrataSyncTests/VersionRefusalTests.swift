import Foundation
import Strata
import StrataCloud
import StrataSyncServer
import StrataTestSupport
import Testing

/// A device whose model version the server cannot serve is told to update: its sync throws the
/// refusal, its events say an update is required, and its local commits stay, waiting.
@Suite @MainActor struct VersionRefusalTests {
    /// A server whose V1 was sealed with other locks than the app's V1: what a device sees when
    /// its version changed after it shipped.
    static func resealedServer() async throws -> SyncWorld {
        let current = Planner.schemaHistory.currentVersion
        let resealed = ModelVersion("V1", entities: current.entities, configurations: current.configurations,
                                    versionLock: VersionLock(["Board": [1, 2, 3, 4], "Card": [1, 2, 3, 4]]))
        let history = SchemaHistory(model: "Planner", versions: [resealed], migrationChain: ["V1"], current: "V1",
                                    entityTypes: [Board.self, Card.self, Tag.self, Memo.self, Scratch.self])
        let stack = DataStack(history)
        try await stack.addStorage(try freshStore())
        let server = try await SyncServer(stack: stack) { token in SyncWorld.tokens[token] }
        return SyncWorld(serverStack: stack, server: server, transport: InProcessTransport(server: server))
    }

    @Test func aRefusedVersionAsksForAnUpdateAndKeepsLocalCommits() async throws {
        let world = try await Self.resealedServer()
        let (phone, phoneStore) = try await world.device(options: [])
        let events = EventReader(phoneStore)
        let seen = await events.read { if case .updateRequired = $0 { return true } else { return false } }
        let expected = StrataError.syncVersionRefused(
            clientVersion: "V1", serverVersion: "V1",
            reason: "the device's V1 is not the V1 the server sealed: the entities Board, Card, Memo, Scratch, Tag differ; "
                + "a version must never change once an app with it has shipped")
        #expect(seen.last == .updateRequired(expected))
        #expect(!seen.contains { if case .failed = $0 { return true } else { return false } }, "a refusal is not retried as a failure")
        try await phone.perform { transaction in transaction.create(Into<Card>()).title = "kept" }
        #expect(try await phoneStore.unpushedChangeCount() == 1)
        await #expect(throws: expected) { try await phoneStore.sync() }
        #expect(try world.serverStack.fetchCount(From<Card>()) == 0, "nothing was written")
        #expect(expected.description == "sync refused: this device's model version V1 cannot sync with the server's V1: the device's V1 is not the V1 "
            + "the server sealed: the entities Board, Card, Memo, Scratch, Tag differ; a version must never change once an app with it has shipped")
    }
}
