import Foundation
import Strata
import StrataCloud
import StrataSyncCore
import StrataSyncServer
import StrataTestSupport
import Testing

/// Long pulls: pages in order, each applied as one commit, the next one fetched while one is
/// applied, and `remaining` counted in full only when asked.
@Suite @MainActor struct PullPagingTests {
    /// A server holding `count` tags, written by server code.
    static func world(tags count: Int) async throws -> SyncWorld {
        let world = try await SyncWorld.make()
        try await world.serverStack.perform { transaction in
            for number in 0..<count { transaction.create(Into<Tag>()).name = "tag \(number)" }
        }
        return world
    }

    func pull(_ world: SyncWorld, after: Int64, limit: Int, count: Bool?) async throws -> PullResponse {
        let request = PullRequest(client: "reader", model: "Planner", version: "V1", after: after, limit: limit, count: count)
        let answer = await world.server.respond(to: SyncHTTPRequest(method: "POST", path: "/Planner/pull", authorization: "Bearer t-alice",
                                                                    body: Array(try JSONEncoder().encode(request))))
        try #require(answer.status == 200, "\(answer.errorMessage ?? "")")
        return try PullResponse(jsonBytes: answer.body)
    }

    @Test func remainingCountsTheWholeLogUnlessTheRequestSaysNot() async throws {
        let world = try await Self.world(tags: 25)
        let counted = try await pull(world, after: 0, limit: 10, count: nil)
        #expect(counted.entries.count == 10)
        #expect(counted.remaining == 15)
        #expect(try await pull(world, after: 0, limit: 10, count: true).remaining == 15)
        // Not counted: at most `limit` more are counted, and 0 still means the log ends here.
        let bounded = try await pull(world, after: 0, limit: 10, count: false)
        #expect(bounded.entries == counted.entries)
        #expect(bounded.remaining == 10)
        let second = try await pull(world, after: bounded.checkpoint, limit: 10, count: false)
        #expect(second.remaining == 5)
        let last = try await pull(world, after: second.checkpoint, limit: 10, count: false)
        #expect(last.entries.count == 5)
        #expect(last.remaining == 0)
    }

    @Test func anInitialImportOfManyPagesReportsItsProgressAgainstTheWholeCount() async throws {
        let world = try await Self.world(tags: 2_500)
        let stack = DataStack(Planner.schemaHistory)
        let store = CloudStore(fileURL: TestFolders.url("paged-device").appendingPathExtension("sqlite"), server: URL(string: "http://sync.test/sync")!,
                               contentName: "Planner", account: .bearer("t-alice"), cloudStorageOptions: [.syncOnlyWhenAsked],
                               transport: world.transport)
        let iterator = EventReader(store)
        try await stack.addStorage(store)
        let commitsBefore = try await stack.perform { transaction in try transaction.fetchCount(From<Tag>()) }
        #expect(commitsBefore == 0)
        try await store.sync()
        let seen = await iterator.read(until: CloudEventTests.isSynced)
        #expect(seen == [.accountWillAdd, .accountDidAdd(account: "alice"),
                         .initialImportProgress(imported: 1_000, total: 2_500), .initialImportProgress(imported: 2_000, total: 2_500),
                         .initialImportWillFinish, .initialImportProgress(imported: 2_500, total: 2_500),
                         .initialImportDidFinish, .synced(pushed: 0, pulled: 2_500)])
        let names = try stack.fetchAll(From<Tag>()).map(\.name)
        #expect(Set(names) == Set((0..<2_500).map { "tag \($0)" }))
        // Nothing is pulled twice: a second sync finds nothing new.
        try await store.sync()
        #expect(await iterator.read(until: CloudEventTests.isSynced) == [.synced(pushed: 0, pulled: 0)])
    }

    @Test func anInitialImportCutShortGoesOnAsTheSameImportAtTheNextSync() async throws {
        let world = try await Self.world(tags: 2_500)
        let (device, store) = try await world.device()
        let iterator = EventReader(store)
        // Two pages arrive (the first, and the one fetched while it was applied); the third
        // does not.
        world.transport.failAfter = 2
        await #expect(throws: StrataError.syncFailed("the server could not be reached for a pull: the server cannot be reached")) {
            try await store.sync()
        }
        #expect(try device.fetchCount(From<Tag>()) == 2_000)
        let seen = await iterator.read(until: { $0 == .initialImportProgress(imported: 2_000, total: 2_500) })
        #expect(seen == [.accountDidAdd(account: "alice"), .initialImportProgress(imported: 1_000, total: 2_500),
                         .initialImportProgress(imported: 2_000, total: 2_500)])
        world.transport.failAfter = nil
        try await store.sync()
        #expect(await iterator.read(until: CloudEventTests.isSynced) == [.initialImportWillFinish, .initialImportProgress(imported: 2_500, total: 2_500),
                                                                         .initialImportDidFinish, .synced(pushed: 0, pulled: 500)])
        #expect(try device.fetchCount(From<Tag>()) == 2_500)
        // Once finished, it is over: later pulls are not imports.
        try await world.serverStack.perform { transaction in transaction.create(Into<Tag>()).name = "later" }
        try await store.sync()
        #expect(await iterator.read(until: CloudEventTests.isSynced) == [.synced(pushed: 0, pulled: 1)])
    }
}
