import Foundation
import KennelV1Device
import KennelV2Device
import Strata
import StrataCloud
import StrataSyncServer
import StrataTestSupport
import Synchronization
import Testing

/// Devices on an older model version keep syncing with a server on a newer one: the Kennel app
/// at V1 and at V2 (Dog.nickname renamed callName, weight widened, age and Toy added) against a
/// V2 server, at the same time; and a device whose app updates from V1 to V2.
@Suite @MainActor struct SyncAcrossVersionsTests {
    /// Counts the bytes of the server's answers to pulls.
    final class CountingTransport: CloudTransport {
        let inner: InProcessTransport
        let pulledBytes = Atomic(0)

        init(_ inner: InProcessTransport) {
            self.inner = inner
        }

        func post(_ url: URL, body: Data, token: String, timeout: Duration) async throws -> (status: Int, body: Data) {
            let answer = try await inner.post(url, body: body, token: token, timeout: timeout)
            if url.lastPathComponent == "pull" { pulledBytes.add(answer.body.count, ordering: .relaxed) }
            return answer
        }
    }

    struct Kennel {
        let serverStack: DataStack
        let transport: CountingTransport
        let url = URL(string: "http://sync.test/sync")!

        static func make() async throws -> Kennel {
            let stack = DataStack(KennelV2Device.schemaHistory)
            try await stack.addStorage(try freshStore())
            let server = try await SyncServer(stack: stack) { token in SyncWorld.tokens[token] }
            return Kennel(serverStack: stack, transport: CountingTransport(InProcessTransport(server: server)))
        }

        func v1(_ file: URL = TestFolders.url("kennel-v1").appendingPathExtension("sqlite")) async throws -> KennelV1Device {
            try await KennelV1Device.open(file: file, server: url, transport: transport, token: "t-alice")
        }

        func v2(_ file: URL = TestFolders.url("kennel-v2").appendingPathExtension("sqlite")) async throws -> KennelV2Device {
            try await KennelV2Device.open(file: file, server: url, transport: transport, token: "t-alice")
        }
    }

    @Test func aV1AndAV2DeviceConvergeOnWhatEachSees() async throws {
        let kennel = try await Kennel.make()
        let old = try await kennel.v1()
        let new = try await kennel.v2()
        try await old.addDog(name: "Rex", nickname: "Rexy", weight: 20, owner: "Ann")
        try await old.sync()
        try await new.sync()
        #expect(try new.dogs() == [.init(name: "Rex", callName: "Rexy", weight: 20, visits: 0, age: 0, owner: "Ann")])

        // V2-only values reach the server; the V1 device's edits never clear them.
        try await new.editDog("Rex", callName: "R", age: 5)
        try await new.addToy("ball")
        try await new.sync()
        try await old.editDog("Rex", weight: 22, visits: 1)
        try await new.editDog("Rex", visits: 2)
        try await old.sync()
        try await new.sync()
        try await old.sync()
        #expect(try old.dogs() == [.init(name: "Rex", nickname: "R", weight: 22, visits: 3, owner: "Ann")])
        #expect(try new.dogs() == [.init(name: "Rex", callName: "R", weight: 22, visits: 3, age: 5, owner: "Ann")])
        #expect(try KennelV2Device.dogs(in: kennel.serverStack) == (try new.dogs()))
        #expect(try new.toys() == ["ball"])

        // Concurrent edits of the renamed attribute: the later write wins on both versions.
        try await old.editDog("Rex", nickname: "Old's")
        try await new.editDog("Rex", callName: "New's")
        try await old.sync()
        try await new.sync()
        try await old.sync()
        #expect(try old.dogs().first?.nickname == "New's")
        #expect(try new.dogs().first?.callName == "New's")

        // A value V1's type cannot hold stays out of V1; the V1 device keeps what it had.
        try await new.editDog("Rex", weight: 40_000)
        try await new.sync()
        try await old.sync()
        #expect(try old.dogs().first?.weight == 22)
        #expect(try new.dogs().first?.weight == 40_000)
        await old.stack.close()
        await new.stack.close()
    }

    @Test func aDeviceThatUpdatesItsAppKeepsItsOutboxAndDownloadsOnlyWhatItCouldNotSee() async throws {
        let kennel = try await Kennel.make()
        let file = TestFolders.url("kennel-updating").appendingPathExtension("sqlite")
        let old = try await kennel.v1(file)
        for index in 0..<40 { try await old.addDog(name: "Dog \(index)", nickname: "nick \(index)", weight: 10) }
        try await old.sync()
        try await old.sync()   // pulls what it pushed: its checkpoint is the log's end
        // Another device, at V2, downloads every dog (what downloading everything again costs),
        // and sets what V1 cannot see; the V1 device pulls past it, seeing none of it.
        let other = try await kennel.v2()
        let start = kennel.transport.pulledBytes.load(ordering: .relaxed)
        try await other.sync()
        let fullPull = kennel.transport.pulledBytes.load(ordering: .relaxed) - start
        try await other.editDog("Dog 7", age: 7)
        try await other.addToy("ball")
        try await other.sync()
        try await old.sync()
        #expect(try old.dogs().count == 40)
        // An edit not pushed yet when the app is updated.
        try await old.editDog("Dog 3", nickname: "pending")
        await old.stack.close()

        let before = kennel.transport.pulledBytes.load(ordering: .relaxed)
        let updated = try await kennel.v2(file)   // the store migrates to V2; its sync records follow
        #expect(try await updated.store.unpushedChangeCount() == 1)
        try await updated.sync()
        let caughtUp = kennel.transport.pulledBytes.load(ordering: .relaxed) - before
        #expect(caughtUp * 4 < fullPull, "the update pulled \(caughtUp) bytes; the first sync of the same dogs pulled \(fullPull)")
        let dogs = try updated.dogs()
        #expect(dogs.count == 40)
        #expect(dogs.first { $0.name == "Dog 7" }?.age == 7)
        #expect(dogs.first { $0.name == "Dog 3" }?.callName == "pending")
        #expect(try updated.toys() == ["ball"])
        try await other.sync()
        #expect(try other.dogs().first { $0.name == "Dog 3" }?.callName == "pending")
        #expect(try KennelV2Device.dogs(in: kennel.serverStack).first { $0.name == "Dog 7" }?.age == 7, "the update cleared nothing")
        await updated.stack.close()
        await other.stack.close()
    }
}
