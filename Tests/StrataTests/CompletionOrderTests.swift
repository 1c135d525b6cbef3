import Foundation
import Testing
@testable import Strata

/// Each asynchronous transaction's completion sees the state its own commit left: the next one
/// starts only after it has run, as CoreStore's serial transaction queue does.
@MainActor
@Suite("Completion order", .timeLimit(.minutes(5)))
struct CompletionOrderTests {
    @Test func backToBackTransactionsEachSeeTheirOwnCommit() async throws {
        let stack = try makeStack()
        let seen: [String] = await withCheckedContinuation { continuation in
            var seen: [String] = []
            stack.perform(asynchronous: { transaction in
                let person = transaction.create(Into<Person>())
                person.name = "Ann"
                return person.objectID(as: Person.self)
            }, completion: { result in
                let id = try? result.get()
                seen.append("created: \((try? stack.fetchCount(From<Person>())) ?? -1) \(id.flatMap { stack.fetchExisting($0)?.name } ?? "gone")")
            })
            stack.perform(asynchronous: { transaction in
                try transaction.fetchOne(From<Person>())?.name = "Ann Lee"
            }, completion: { _ in
                seen.append("updated: \((try? stack.fetchOne(From<Person>()))??.name ?? "gone")")
            })
            stack.perform(asynchronous: { transaction in
                try transaction.deleteAll(From<Person>())
            }, success: { _ in
                seen.append("deleted: \((try? stack.fetchCount(From<Person>())) ?? -1)")
                continuation.resume(returning: seen)
            }, failure: { error in
                seen.append("failed: \(error)")
                continuation.resume(returning: seen)
            })
        }
        #expect(seen == ["created: 1 Ann", "updated: Ann Lee", "deleted: 0"])
    }

    @Test func aFailedTransactionLetsTheNextOneRun() async throws {
        let stack = try makeStack()
        let outcomes: [String] = await withCheckedContinuation { continuation in
            var outcomes: [String] = []
            stack.perform(asynchronous: { _ in throw StrataError.userCancelled }, completion: { (result: Result<Void, StrataError>) in
                if case .failure(let error) = result { outcomes.append("\(error)") }
            })
            stack.perform(asynchronous: { transaction in transaction.create(Into<Person>()).name = "Bob" }, completion: { _ in
                outcomes.append("count \((try? stack.fetchCount(From<Person>())) ?? -1)")
                continuation.resume(returning: outcomes)
            })
        }
        #expect(outcomes == ["\(StrataError.userCancelled)", "count 1"])
    }

    @Test func theAsyncPerformTakesItsTurn() async throws {
        let stack = try makeStack()
        let first: Int = await withCheckedContinuation { continuation in
            stack.perform(asynchronous: { transaction in transaction.create(Into<Person>()).name = "Ann" }, completion: { _ in
                continuation.resume(returning: (try? stack.fetchCount(From<Person>())) ?? -1)
            })
        }
        let second = try await stack.perform { transaction in
            transaction.create(Into<Person>()).name = "Bob"
            return try transaction.fetchCount(From<Person>())
        }
        #expect(first == 1 && second == 2)
        #expect(try stack.fetchCount(From<Person>()) == 2)
    }
}
