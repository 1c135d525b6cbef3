import Foundation
import KennelV2Device
import KennelV3Device
import Strata
import StrataCloud
import StrataSyncServer
import StrataTestSupport
import Testing

/// An entity renamed between versions (Kennel V3 calls V2's Toy a Plaything, and its label its
/// name): devices on either side of the rename, and a device whose app updates across it, hold
/// the same objects.
@Suite @MainActor struct EntityRenameSyncTests {
    struct Kennel {
        let serverStack: DataStack
        let transport: InProcessTransport
        let url = URL(string: "http://sync.test/sync")!

        static func make() async throws -> Kennel {
            let stack = DataStack(KennelV3Device.schemaHistory)
            try await stack.addStorage(try freshStore())
            let server = try await SyncServer(stack: stack) { token in SyncWorld.tokens[token] }
            return Kennel(serverStack: stack, transport: InProcessTransport(server: server))
        }

        func v2(_ file: URL = TestFolders.url("kennel-v2").appendingPathExtension("sqlite")) async throws -> KennelV2Device {
            try await KennelV2Device.open(file: file, server: url, transport: transport, token: "t-alice")
        }

        func v3(_ file: URL = TestFolders.url("kennel-v3").appendingPathExtension("sqlite")) async throws -> KennelV3Device {
            try await KennelV3Device.open(file: file, server: url, transport: transport, token: "t-alice")
        }
    }

    @Test func aToyOnAV2DeviceIsAPlaythingOnAV3DeviceAndBack() async throws {
        let kennel = try await Kennel.make()
        let old = try await kennel.v2()
        let new = try await kennel.v3()
        try await old.addToy("ball")
        try await old.sync()
        try await new.sync()
        #expect(try new.playthings() == ["ball"])

        try await new.renamePlaything("ball", to: "bone")
        try await new.addPlaything("rope")
        try await new.sync()
        try await old.sync()
        #expect(try old.toys() == ["bone", "rope"])

        try await old.relabelToy("rope", to: "long rope")
        try await old.sync()
        try await new.sync()
        #expect(try new.playthings() == ["bone", "long rope"])
        #expect(try KennelV3Device.playthings(in: kennel.serverStack) == ["bone", "long rope"])
        await old.stack.close()
        await new.stack.close()
    }

    @Test func anAppUpdateAcrossTheRenameKeepsItsUnpushedToysAsPlaythings() async throws {
        let kennel = try await Kennel.make()
        let file = TestFolders.url("kennel-renaming").appendingPathExtension("sqlite")
        let old = try await kennel.v2(file)
        try await old.addToy("ball")
        try await old.sync()
        // Changes not pushed yet when the app is updated: an edit and a new toy.
        try await old.relabelToy("ball", to: "red ball")
        try await old.addToy("kite")
        #expect(try await old.store.unpushedChangeCount() == 2)
        await old.stack.close()

        let updated = try await kennel.v3(file)   // the store migrates to V3; its sync records follow
        #expect(try updated.playthings() == ["kite", "red ball"])
        #expect(try await updated.store.unpushedChangeCount() == 2)
        try await updated.sync()
        #expect(try await updated.store.unpushedChangeCount() == 0)
        #expect(try KennelV3Device.playthings(in: kennel.serverStack) == ["kite", "red ball"])
        // The edited toy is the same object, not a copy: the server holds two playthings.
        try await updated.renamePlaything("kite", to: "box kite")
        try await updated.sync()
        let other = try await kennel.v3()
        try await other.sync()
        #expect(try other.playthings() == ["box kite", "red ball"])
        await updated.stack.close()
        await other.stack.close()
    }
}
