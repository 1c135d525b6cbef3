import Foundation
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
