import Foundation
import Strata
import StrataCloud
import StrataTestSupport
import Testing

/// CoreStore's eight events, and what the store does around them.
@Suite @MainActor struct CloudEventTests {
    static func isSynced(_ event: CloudStoreEvent) -> Bool {
        if case .synced = event { return true }
        return false
    }

    @Test func aNewDeviceImportsTheContentThatExists() async throws {
        let world = try await SyncWorld.make()
        let (phone, phoneStore) = try await world.device()
        try await phone.perform { transaction in
            for title in ["a", "b", "c"] { transaction.create(Into<Tag>()).name = title }
        }
        try await phoneStore.sync()
        let stack = DataStack(Planner.schemaHistory)
        let store = CloudStore(fileURL: TestFolders.url("new-device").appendingPathExtension("sqlite"), server: URL(string: "http://sync.test/sync")!,
                               contentName: "Planner", account: .bearer("t-alice"), cloudStorageOptions: [.syncOnlyWhenAsked],
                               transport: world.transport)
        let iterator = EventReader(store)
        try await stack.addStorage(store)
        try await store.sync()
        let seen = await iterator.read(until: Self.isSynced)
        #expect(seen == [.accountWillAdd, .accountDidAdd(account: "alice"), .initialImportWillFinish, .initialImportProgress(imported: 3, total: 3),
                         .initialImportDidFinish, .synced(pushed: 0, pulled: 3)])
        #expect(try stack.fetchCount(From<Tag>()) == 3)
    }

    @Test func offlineCommitsSucceedAndArePushedWhenTheServerAnswers() async throws {
        let world = try await SyncWorld.make()
        let (phone, phoneStore) = try await world.device()
        world.transport.isOffline = true
        for number in 1...5 {
            try await phone.perform { transaction in
                transaction.create(Into<Tag>()).name = "offline \(number)"
            }
        }
        await #expect(throws: StrataError.syncFailed("the server could not be reached for a pull: the server cannot be reached")) {
            try await phoneStore.sync()
        }
        #expect(try await phoneStore.unpushedChangeCount() == 5)
        #expect(try phone.fetchCount(From<Tag>()) == 5)
        world.transport.isOffline = false
        try await phoneStore.sync()
        #expect(try await phoneStore.unpushedChangeCount() == 0)
        #expect(try world.serverStack.fetchAll(From<Tag>()).map(\.name).sorted() == (1...5).map { "offline \($0)" })
    }

    @Test func aRemovedContentIsErasedOnTheDeviceThatStartsAgain() async throws {
        let world = try await SyncWorld.make()
        let (phone, phoneStore) = try await world.device()
        try await phone.perform { transaction in
            transaction.create(Into<Tag>()).name = "before"
        }
        try await phoneStore.sync()
        try await world.server.removeContent()
        try await world.serverStack.perform { transaction in
            transaction.create(Into<Tag>()).name = "after"
        }
        let iterator = EventReader(phoneStore)
        try await phoneStore.sync()
        let seen = await iterator.read(until: Self.isSynced)
        #expect(seen.prefix(2) == [.contentWillRemove, .contentDidRemove])
        #expect(try phone.fetchAll(From<Tag>()).map(\.name) == ["after"])
        #expect(try world.serverStack.fetchAll(From<Tag>()).map(\.name) == ["after"])
    }

    @Test func signingOutKeepsOrErasesTheObjectsAsTheOptionsSay() async throws {
        let world = try await SyncWorld.make()
        for erasing in [false, true] {
            let options: CloudStorageOptions = erasing ? [.syncOnlyWhenAsked, .eraseLocalContentOnSignOut] : [.syncOnlyWhenAsked]
            let (phone, phoneStore) = try await world.device(options: options)
            try await phone.perform { transaction in
                transaction.create(Into<Memo>()).text = "mine"
            }
            try await phoneStore.sync()
            let iterator = EventReader(phoneStore)
            phoneStore.account = nil
            let seen = await iterator.read { $0 == .accountDidRemove }
            #expect(seen == [.accountWillRemove, .accountDidRemove])
            #expect(try phone.fetchCount(From<Memo>()) == (erasing ? 0 : 1))
            await #expect(throws: StrataError.syncFailed("the store has no account; set CloudStore.account to sync")) {
                try await phoneStore.sync()
            }
        }
    }

    @Test func anotherAccountReplacesThePreviousAccountsObjects() async throws {
        let world = try await SyncWorld.make()
        let (bob, bobStore) = try await world.device(account: "t-bob")
        try await bob.perform { transaction in
            transaction.create(Into<Memo>()).text = "bob's"
        }
        try await bobStore.sync()
        let (phone, phoneStore) = try await world.device(account: "t-alice")
        try await phone.perform { transaction in
            transaction.create(Into<Memo>()).text = "alice's"
        }
        try await phoneStore.sync()
        let iterator = EventReader(phoneStore)
        phoneStore.account = .bearer("t-bob")
        _ = await iterator.read { $0 == .accountWillAdd }
        try await phoneStore.sync()
        let seen = await iterator.read(until: Self.isSynced)
        #expect(seen.contains(.accountDidAdd(account: "bob")))
        #expect(try phone.fetchAll(From<Memo>()).map(\.text) == ["bob's"])
        #expect(try world.serverStack.fetchAll(From<Memo>()).map(\.text).sorted() == ["alice's", "bob's"])
    }

    @Test func observersAreToldOnTheMainActor() async throws {
        let world = try await SyncWorld.make()
        let (_, store) = try await world.device(account: nil)
        let observer = RecordingObserver()
        store.addObserver(observer)
        let iterator = EventReader(store)
        store.account = .bearer("t-alice")
        _ = await iterator.read { $0 == .accountWillAdd }
        try await store.sync()
        _ = await iterator.read(until: Self.isSynced)
        await observer.waitFor(count: 2)
        #expect(observer.calls == ["willAddAccount", "didAddAccount"])
    }
}

@MainActor
final class RecordingObserver: CloudStoreObserver {
    var calls: [String] = []
    private var waiting: [(Int, CheckedContinuation<Void, Never>)] = []

    func cloudStoreWillAddAccount(_ storage: CloudStore) { record("willAddAccount") }
    func cloudStoreDidAddAccount(_ storage: CloudStore) { record("didAddAccount") }

    private func record(_ call: String) {
        calls.append(call)
        let ready = waiting.filter { $0.0 <= calls.count }
        waiting.removeAll { $0.0 <= calls.count }
        for (_, continuation) in ready { continuation.resume() }
    }

    func waitFor(count: Int) async {
        guard calls.count < count else { return }
        await withCheckedContinuation { waiting.append((count, $0)) }
    }
}

/// Reads a store's events, in order, as they were delivered.
@MainActor
final class EventReader {
    private var iterator: AsyncStream<CloudStoreEvent>.Iterator

    init(_ store: CloudStore) {
        iterator = store.events.makeAsyncIterator()
    }

    /// The events up to and including the first that `last` accepts.
    func read(until last: (CloudStoreEvent) -> Bool) async -> [CloudStoreEvent] {
        var seen: [CloudStoreEvent] = []
        var local = iterator
        while let event = await local.next(isolation: MainActor.shared) {
            seen.append(event)
            if last(event) { break }
        }
        iterator = local
        return seen
    }
}

/// Unique attributes stay unique on every node.
@Suite @MainActor struct UniqueValueSyncTests {
    @Test func twoDevicesGivingOneUniqueValueAreToldUntilOneChangesIt() async throws {
        let world = try await SyncWorld.make()
        let (phone, phoneStore) = try await world.device()
        let (laptop, laptopStore) = try await world.device()
        for stack in [phone, laptop] {
            try await stack.perform { transaction in
                let tag = transaction.create(Into<Tag>())
                tag.name = stack === phone ? "phone's" : "laptop's"
                tag.code = "X"
            }
        }
        try await phoneStore.sync()
        // The laptop's pull meets the phone's tag, which its own tag keeps out.
        await #expect(throws: StrataError.syncFailed("the server's changes could not be applied here: saving would give two 'Tag' objects the same code")) {
            try await laptopStore.sync()
        }
        #expect(try world.serverStack.fetchAll(From<Tag>()).map(\.name) == ["phone's"])
        try await laptop.perform { transaction in
            try #require(try transaction.fetchOne(From<Tag>(), Where<Tag>(\.name == "laptop's"))).code = "Y"
        }
        try await laptopStore.sync()
        try await phoneStore.sync()
        for stack in [phone, laptop, world.serverStack] {
            #expect(try stack.fetchAll(From<Tag>(), OrderBy<Tag>(.ascending(\.name))).map { "\($0.name):\($0.code ?? "")" } == ["laptop's:Y", "phone's:X"])
        }
    }
}

extension UniqueValueSyncTests {
    @Test func aPushTheServerRefusesIsRebuiltFromTheObjectsAsTheyAreNow() async throws {
        let world = try await SyncWorld.make()
        let (phone, phoneStore) = try await world.device()
        try await world.serverStack.perform { transaction in
            transaction.create(Into<Tag>()).code = "X"
        }
        try await phone.perform { transaction in
            transaction.create(Into<Tag>()).code = "X"
        }
        // Pushed before it pulls the server's tag: the server refuses the batch.
        await #expect(throws: StrataError.syncFailed("the server answered 409 to a push: saving would give two 'Tag' objects the same code; nothing of the batch was applied")) {
            try await phoneStore.push()
        }
        #expect(try await phoneStore.unpushedChangeCount() == 1)
        try await phone.perform { transaction in
            try #require(try transaction.fetchOne(From<Tag>())).code = "Y"
        }
        try await phoneStore.sync()
        #expect(try world.serverStack.fetchAll(From<Tag>(), OrderBy<Tag>(.ascending(\.code))).map(\.code) == ["X", "Y"])
        #expect(try phone.fetchAll(From<Tag>(), OrderBy<Tag>(.ascending(\.code))).map(\.code) == ["X", "Y"])
    }
}
