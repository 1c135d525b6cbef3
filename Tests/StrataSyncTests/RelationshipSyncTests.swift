import Foundation
import Strata
import StrataCloud
import StrataTestSupport
import Testing

@Suite @MainActor struct RelationshipSyncTests {
    @Test func anOrderedToManyConvergesOnTheLastOrderWritten() async throws {
        let world = try await SyncWorld.make()
        let (phone, phoneStore) = try await world.device()
        let (laptop, laptopStore) = try await world.device()
        try await phone.perform { transaction in
            let board = transaction.create(Into<Board>())
            board.title = "Week"
            board.cards = ["a", "b", "c"].map { title in
                let card = transaction.create(Into<Card>())
                card.title = title
                return card
            }
        }
        try await phoneStore.sync()
        try await laptopStore.sync()
        #expect(try laptop.fetchOne(From<Board>())?.cards.map(\.title) == ["a", "b", "c"])
        try await phone.perform { transaction in
            let board = try #require(try transaction.fetchOne(From<Board>()))
            board.cards = board.cards.reversed()
        }
        try await laptop.perform { transaction in
            let board = try #require(try transaction.fetchOne(From<Board>()))
            let cards = board.cards
            board.cards = [cards[1], cards[0], cards[2]]
        }
        try await phoneStore.sync()
        try await laptopStore.sync()
        try await phoneStore.sync()
        #expect(try phone.fetchOne(From<Board>())?.cards.map(\.title) == ["b", "a", "c"])
        #expect(try laptop.fetchOne(From<Board>())?.cards.map(\.title) == ["b", "a", "c"])
        #expect(try world.serverStack.fetchOne(From<Board>())?.cards.map(\.title) == ["b", "a", "c"])
    }

    @Test func aManyToManyMergesMemberByMember() async throws {
        let world = try await SyncWorld.make()
        let (phone, phoneStore) = try await world.device()
        let (laptop, laptopStore) = try await world.device()
        try await phone.perform { transaction in
            let card = transaction.create(Into<Card>())
            card.title = "Trip"
            card.tags = Set(["red", "green", "blue"].map { name in
                let tag = transaction.create(Into<Tag>())
                tag.name = name
                return tag
            })
        }
        try await phoneStore.sync()
        try await laptopStore.sync()
        // The phone removes red; the laptop adds yellow and removes blue.
        try await phone.perform { transaction in
            let card = try #require(try transaction.fetchOne(From<Card>()))
            card.tags = card.tags.filter { $0.name != "red" }
        }
        try await laptop.perform { transaction in
            let card = try #require(try transaction.fetchOne(From<Card>()))
            let yellow = transaction.create(Into<Tag>())
            yellow.name = "yellow"
            card.tags = card.tags.filter { $0.name != "blue" }.union([yellow])
        }
        try await phoneStore.sync()
        try await laptopStore.sync()
        try await phoneStore.sync()
        for stack in [phone, laptop, world.serverStack] {
            #expect(try stack.fetchOne(From<Card>())?.tags.map(\.name).sorted() == ["green", "yellow"])
        }
    }

    @Test func aToOneNamingAnObjectNotYetArrivedIsSetWhenItArrives() async throws {
        let world = try await SyncWorld.make()
        let (phone, phoneStore) = try await world.device()
        let (laptop, laptopStore) = try await world.device()
        try await phone.perform { transaction in
            let board = transaction.create(Into<Board>())
            board.title = "Later"
            transaction.create(Into<Card>()).board = board
        }
        try await phoneStore.sync()
        // Edited after its card, the board comes after the card in the log: the laptop's first
        // pull meets the card first and sets its board when the board arrives.
        try await phone.perform { transaction in
            try #require(try transaction.fetchOne(From<Board>())).title = "Later, renamed"
        }
        try await phoneStore.sync()
        try await laptopStore.sync()
        #expect(try laptop.fetchOne(From<Card>())?.board?.title == "Later, renamed")
        #expect(try laptop.fetchOne(From<Board>())?.cards.count == 1)
    }

    @Test func objectsStoredBeforeSyncBeganAreSynced() async throws {
        let world = try await SyncWorld.make()
        let url = TestFolders.url("existing").appendingPathExtension("sqlite")
        do {
            let plain = DataStack(Planner.schemaHistory)
            try await plain.addStorage(SQLiteStore(fileURL: url))
            try await plain.perform { transaction in
                let board = transaction.create(Into<Board>())
                board.title = "From before"
                transaction.create(Into<Card>()).board = board
                transaction.create(Into<Scratch>()).text = "stays here"
            }
        }
        let (_, store) = try await world.device(file: url)
        #expect(try await store.unpushedChangeCount() == 2)
        try await store.sync()
        #expect(try await store.unpushedChangeCount() == 0)
        #expect(try world.serverStack.fetchOne(From<Card>())?.board?.title == "From before")
        #expect(try world.serverStack.fetchCount(From<Scratch>()) == 0)
    }
}
