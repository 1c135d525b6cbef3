import Foundation
import StrataTestSupport
import Testing
@testable import Strata

/// Every fetch, query and count, on the main context and in read contexts, reflects exactly one
/// committed state, while transactions of every kind and a second stack on the same file commit
/// random transfers. Money moves between accounts, so any read that sees a total other than the
/// one it started with has seen half of a commit.
@Suite("Consistent reads")
struct ConsistentReadTests {
    static let accounts = 8
    static let opening = 100
    static let total = accounts * opening
    static let rounds = 20
    static let mainReads = 400
    static let readContextReads = 150

    /// Moves a random amount between two random accounts and counts the transfer in the ledger.
    /// An unsafe transaction reads the ledger with a fetch that throws: on a server whose writers
    /// run side by side, the changes a read writes first may meet a deadlock, which `edit` (which
    /// cannot throw) would turn into nil, where `perform` runs the transaction again by itself.
    static func transfer(_ transaction: BaseDataTransaction, ledger: ObjectID<Person>, seed random: inout SystemRandomNumberGenerator) throws {
        let people = try transaction.fetchAll(From<Person>().where(\.name != "ledger").orderBy(.ascending(\.name)))
        let from = people[Int.random(in: 0..<people.count, using: &random)]
        var to = from
        while to === from { to = people[Int.random(in: 0..<people.count, using: &random)] }
        let amount = Int.random(in: 1...20, using: &random)
        from.visits -= amount
        to.visits += amount
        let book: Person?
        if transaction is UnsafeDataTransaction {
            book = try transaction.fetchOne(From<Person>().where(\.name == "ledger"))
        } else {
            book = transaction.edit(ledger)
        }
        guard let book else { throw StrataError.invalidQuery("no ledger") }
        book.age += 1
    }

    static func sum(_ people: [Person]) -> Int { people.reduce(0) { $0 + $1.visits } }

    @MainActor
    @Test func everyReadSeesOneCommittedState() async throws {
        let store = try sharedStore(file: temporaryStoreURL())
        let stack = DataStack(Zoo.schemaHistory)
        try stack.addStorageAndWait(store())
        let ledger = try await stack.perform { transaction in
            for index in 0..<Self.accounts {
                let person = transaction.create(Into<Person>())
                person.name = "account \(index)"
                person.visits = Self.opening
            }
            let book = transaction.create(Into<Person>())
            book.name = "ledger"
            return book.objectID(as: Person.self)
        }
        let other = DataStack(Zoo.schemaHistory)
        try other.addStorageAndWait(store())
        let live = try stack.fetchAll(From<Person>())

        let writers = Task.detached {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<3 {
                    group.addTask {
                        for _ in 0..<Self.rounds {
                            try await stack.perform { transaction in
                                var random = SystemRandomNumberGenerator()
                                try Self.transfer(transaction, ledger: ledger, seed: &random)
                            }
                        }
                    }
                }
                group.addTask {
                    var random = SystemRandomNumberGenerator()
                    for _ in 0..<Self.rounds {
                        try stack.perform(synchronous: { transaction in try Self.transfer(transaction, ledger: ledger, seed: &random) })
                    }
                }
                group.addTask {
                    for _ in 0..<Self.rounds {
                        let result: Result<Void, StrataError> = await withCheckedContinuation { continuation in
                            stack.perform(asynchronous: { transaction in
                                var random = SystemRandomNumberGenerator()
                                try Self.transfer(transaction, ledger: ledger, seed: &random)
                            }, completion: { continuation.resume(returning: $0) })
                        }
                        try result.get()
                    }
                }
                group.addTask {
                    // An unsafe transaction kept across everyone else's commits: refresh, change,
                    // commit, and on a conflict start again from the store.
                    var random = SystemRandomNumberGenerator()
                    let unsafe = stack.beginUnsafe()
                    var done = 0
                    while done < Self.rounds {
                        do {
                            try unsafe.refreshAndMergeAllObjects()
                            try Self.transfer(unsafe, ledger: ledger, seed: &random)
                            try unsafe.commit()
                            done += 1
                        } catch let error as StrataError {
                            // A server whose writers run side by side may also report a deadlock
                            // with another writer: the changes are dropped and made again.
                            switch error {
                            case .mergeConflict: break
                            case _ where error.conflict != nil: unsafe.rollback()
                            default: throw error
                            }
                        }
                    }
                }
                group.addTask {
                    for _ in 0..<Self.rounds {
                        try await other.perform { transaction in
                            var random = SystemRandomNumberGenerator()
                            try Self.transfer(transaction, ledger: ledger, seed: &random)
                        }
                    }
                }
                group.addTask {
                    // A fixed number of reads, not "until the writers finish": a loop that never
                    // suspends for long would starve the writers' tasks on a 2-core pool.
                    for _ in 0..<Self.readContextReads {
                        let (fetched, queried, count) = try await stack.read { reader in
                            (Self.sum(try reader.fetchAll(From<Person>())),
                             try reader.queryValue(From<Person>().select(Int.self, .sum(\.visits))),
                             try reader.fetchCount(From<Person>()))
                        }
                        #expect(fetched == Self.total)
                        #expect(queried == Self.total)
                        #expect(count == Self.accounts + 1)
                    }
                }
                try await group.waitForAll()
            }
        }
        for _ in 0..<Self.mainReads {
            #expect(Self.sum(try stack.fetchAll(From<Person>())) == Self.total)
            #expect(try stack.queryValue(From<Person>().select(Int.self, .sum(\.visits))) == Self.total)
            #expect(try stack.fetchCount(From<Person>()) == Self.accounts + 1)
            #expect(Self.sum(live) == Self.total)
            await Task.yield()
        }
        try await writers.value

        // Exact counts at the end, read by both stacks once they have caught up, and by a new one.
        let transfers = Self.rounds * 7
        let fresh = DataStack(Zoo.schemaHistory)
        try fresh.addStorageAndWait(store())
        try await stack.perform { _ in }
        try await other.perform { _ in }
        for reader in [stack, other, fresh] {
            let book = try #require(try reader.fetchOne(From<Person>().where(\.name == "ledger")))
            #expect(Int(book.age) == transfers)
            #expect(Self.sum(try reader.fetchAll(From<Person>())) == Self.total)
        }
        #expect(Self.sum(live) == Self.total)
    }
}
