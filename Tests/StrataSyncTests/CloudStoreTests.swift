import Foundation
import Strata
import StrataCloud
import StrataSyncServer
import StrataTestSupport
import Testing

@Suite @MainActor struct CloudStoreTests {
    @Test func objectsAndRelationshipsReachTheOtherDevice() async throws {
        let world = try await SyncWorld.make()
        let (phone, phoneStore) = try await world.device()
        let (laptop, laptopStore) = try await world.device()
        try await phone.perform { transaction in
            let board = transaction.create(Into<Board>())
            board.title = "Groceries"
            let card = transaction.create(Into<Card>())
            card.title = "Milk"
            card.board = board
            let tag = transaction.create(Into<Tag>())
            tag.name = "dairy"
            card.tags = [tag]
        }
        try await phoneStore.sync()
        try await laptopStore.sync()
        let boards = try laptop.fetchAll(From<Board>())
        #expect(boards.map(\.title) == ["Groceries"])
        let cards = try laptop.fetchAll(From<Card>())
        #expect(cards.map(\.title) == ["Milk"])
        #expect(cards.first?.board?.title == "Groceries")
        #expect(cards.first?.tags.map(\.name) == ["dairy"])
        #expect(try world.serverStack.fetchCount(From<Card>()) == 1)
    }

    @Test func concurrentEditsConvergeByTheRules() async throws {
        let world = try await SyncWorld.make()
        let (phone, phoneStore) = try await world.device()
        let (laptop, laptopStore) = try await world.device()
        try await phone.perform { transaction in
            transaction.create(Into<Board>()).title = "Plans"
        }
        try await phoneStore.sync()
        try await laptopStore.sync()
        // Both change the title and count a view, offline from each other.
        try await phone.perform { transaction in
            let board = try #require(try transaction.fetchOne(From<Board>()))
            board.title = "Phone's plans"
            board.views += 2
        }
        try await laptop.perform { transaction in
            let board = try #require(try transaction.fetchOne(From<Board>()))
            board.title = "Laptop's plans"
            board.views += 3
        }
        try await phoneStore.sync()
        try await laptopStore.sync()
        try await phoneStore.sync()
        let onPhone = try #require(try phone.fetchOne(From<Board>()))
        let onLaptop = try #require(try laptop.fetchOne(From<Board>()))
        let onServer = try #require(try world.serverStack.fetchOne(From<Board>()))
        #expect(onPhone.views == 5)
        #expect(onLaptop.views == 5)
        #expect(onServer.views == 5)
        // The later write wins everywhere.
        #expect(onPhone.title == "Laptop's plans")
        #expect(onLaptop.title == "Laptop's plans")
        #expect(onServer.title == "Laptop's plans")
    }

    @Test func aDeleteWinsOverAConcurrentEdit() async throws {
        let world = try await SyncWorld.make()
        let (phone, phoneStore) = try await world.device()
        let (laptop, laptopStore) = try await world.device()
        try await phone.perform { transaction in
            transaction.create(Into<Tag>()).name = "old"
        }
        try await phoneStore.sync()
        try await laptopStore.sync()
        try await laptop.perform { transaction in
            try #require(try transaction.fetchOne(From<Tag>())).name = "renamed later"
        }
        try await phone.perform { transaction in
            _ = transaction.delete(try transaction.fetchAll(From<Tag>()))
        }
        try await phoneStore.sync()
        try await laptopStore.sync()
        try await phoneStore.sync()
        #expect(try phone.fetchCount(From<Tag>()) == 0)
        #expect(try laptop.fetchCount(From<Tag>()) == 0)
        #expect(try world.serverStack.fetchCount(From<Tag>()) == 0)
    }

    @Test func serverCodeChangesReachDevices() async throws {
        let world = try await SyncWorld.make()
        let (phone, phoneStore) = try await world.device()
        try await world.serverStack.perform { transaction in
            transaction.create(Into<Board>()).title = "Made by the server"
        }
        try await phoneStore.sync()
        #expect(try phone.fetchAll(From<Board>()).map(\.title) == ["Made by the server"])
    }
}
