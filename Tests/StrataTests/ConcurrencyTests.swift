import Foundation
import StrataTestSupport
import Testing
@testable import Strata

@Suite("Concurrency")
struct ConcurrencyTests {
    /// Many transactions at once from many tasks, with the main context reading between them:
    /// every commit lands, none is lost, and the main context ends up seeing all of them.
    @MainActor
    @Test func manyConcurrentTransactionsWithMainContextReads() async throws {
        let stack = DataStack(Zoo.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: temporaryStoreURL()))
        let counter = try await stack.perform { transaction in
            let person = transaction.create(Into<Person>())
            person.name = "counter"
            return person.objectID(as: Person.self)
        }
        let live = try #require(stack.fetchExisting(counter))
        let workers = Task.detached {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        for round in 0..<25 {
                            try await stack.perform { transaction in
                                let person = transaction.create(Into<Person>())
                                person.name = "w\(worker)-\(round)"
                                let shared = try #require(transaction.edit(counter))
                                shared.visits += 1
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        var last = 0
        for _ in 0..<50 {
            let count = try stack.fetchCount(From<Person>())
            #expect(count >= last)
            #expect(live.visits <= count - 1)
            last = count
            await Task.yield()
        }
        try await workers.value
        #expect(try stack.fetchCount(From<Person>()) == 201)
        #expect(live.visits == 200)
    }

    /// Commits from a background thread reach the main context, in order, before later awaits.
    @MainActor
    @Test func synchronousPerformsFromBackgroundThreads() async throws {
        let stack = try makeStack()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<10 {
                group.addTask {
                    _ = try? stack.perform(synchronous: { transaction in
                        transaction.create(Into<Person>()).name = "s\(index)"
                    })
                }
            }
        }
        #expect(try stack.fetchCount(From<Person>()) == 10)
    }
}

@Suite("Read contexts")
struct ReadContextTests {
    @Test func readContextsRunConcurrentlyAndReturnSnapshots() async throws {
        let stack = try makeStack()
        try await addPeople(["Ann", "Bob", "Cid"], to: stack)
        let results = try await withThrowingTaskGroup(of: [Person.Snapshot].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try await stack.read { reader in
                        try reader.fetchAll(From<Person>().orderBy(.ascending(\.name))).map(\.snapshot)
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 4)
        #expect(results.allSatisfy { $0.map(\.name) == ["Ann", "Bob", "Cid"] })
        let count = try await stack.read { try $0.fetchCount(From<Person>().where(\.age > 10)) }
        #expect(count == 2)
    }

    @Test(.sqliteOnly("a trap, checked in a child process (which would start a server of its own); it comes before any SQL"))
    func readContextsCannotWrite() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let stack = try makeStack()
            try await addPeople(["Ann"], to: stack)
            _ = try await stack.read { reader in
                try reader.fetchOne(From<Person>())?.age = 1
            }
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("'Person.age' was set on an object of a read-only context"))
    }
}

@Suite("Reader pool")
struct ReaderPoolTests {
    @Test func readContextsReuseConnections() async throws {
        let stack = try makeStack()
        try await addPeople(["Ann"], to: stack)
        #expect(stack.core.readers.count(0) == 0)
        for _ in 0..<3 {
            let count = try await stack.read { try $0.fetchCount(From<Person>()) }
            #expect(count == 1)
        }
        #expect(stack.core.readers.count(0) == 1)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { try await stack.read { try $0.fetchCount(From<Person>()) } } }
            for try await count in group { #expect(count == 1) }
        }
        #expect((1...ReaderPool.capacity).contains(stack.core.readers.count(0)))
    }
}
