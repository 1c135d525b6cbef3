import Foundation
import Strata
import StrataCloud
import StrataSyncServer
import StrataTestSupport
import Testing

/// Devices that reach the server through `URLSession` over real HTTP on loopback.
@Suite @MainActor struct HTTPSyncTests {
    @Test func devicesSyncOverHTTP() async throws {
        let world = try await SyncWorld.make()
        let http = try world.httpServer()
        defer { http.stop() }
        let (phone, phoneStore) = try await world.httpDevice(http)
        let (laptop, laptopStore) = try await world.httpDevice(http)
        try await phone.perform { transaction in
            transaction.create(Into<Board>()).title = "Over HTTP"
        }
        try await phoneStore.sync()
        try await laptopStore.sync()
        #expect(try laptop.fetchAll(From<Board>()).map(\.title) == ["Over HTTP"])
    }

    @Test func aServerCommitReachesALiveDevicesMonitor() async throws {
        let world = try await SyncWorld.make()
        let http = try world.httpServer()
        defer { http.stop() }
        let (phone, phoneStore) = try await world.httpDevice(http, options: [])
        let events = EventReader(phoneStore)
        // The live loop's first exchange.
        _ = await events.read { if case .synced = $0 { return true } else { return false } }
        let monitor = try phone.monitorList(From<Board>(), OrderBy<Board>(.ascending(\.title)))
        var updates = monitor.updates.makeAsyncIterator()
        try await world.serverStack.perform { transaction in
            transaction.create(Into<Board>()).title = "From the server"
        }
        var titles: [String] = []
        while try await updates.next(isolation: MainActor.shared) != nil {
            titles = monitor.objects.map(\.title)
            if !titles.isEmpty { break }
        }
        #expect(titles == ["From the server"])
        phoneStore.account = nil
    }
}

/// Several app servers on one database serve the same content.
@Suite @MainActor struct SeveralAppServersTests {
    @Test func aLivePullFollowsACommitMadeThroughAnotherAppServer() async throws {
        let store = try sharedStore(file: TestFolders.url("shared").appendingPathExtension("sqlite"))
        let first = DataStack(Planner.schemaHistory)
        try await first.addStorage(store())
        let firstServer = try await SyncServer(stack: first) { SyncWorld.tokens[$0] }
        let second = DataStack(Planner.schemaHistory)
        try await second.addStorage(store())
        _ = try await SyncServer(stack: second) { SyncWorld.tokens[$0] }
        let world = SyncWorld(serverStack: first, server: firstServer, transport: InProcessTransport(server: firstServer))
        let http = try world.httpServer()
        defer { http.stop() }
        let (phone, phoneStore) = try await world.httpDevice(http, options: [])
        let events = EventReader(phoneStore)
        _ = await events.read { if case .synced = $0 { return true } else { return false } }
        let monitor = try phone.monitorList(From<Board>(), OrderBy<Board>(.ascending(\.title)))
        var updates = monitor.updates.makeAsyncIterator()
        // Written through the second app server's stack: the first one's live pull hears of it.
        try await second.perform { transaction in
            transaction.create(Into<Board>()).title = "Through the other server"
        }
        var titles: [String] = []
        while try await updates.next(isolation: MainActor.shared) != nil {
            titles = monitor.objects.map(\.title)
            if !titles.isEmpty { break }
        }
        #expect(titles == ["Through the other server"])
        phoneStore.account = nil
    }
}
