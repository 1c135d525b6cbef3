import Foundation
import Synchronization
import Testing
@testable import Strata

/// `try await stack.perform { … }` is the asynchronous transaction wherever it is written.
/// (Top-level code is the one place Swift reads it otherwise; the sample's `main.swift` uses
/// `perform(asynchronous:)` there, and CI fails on the warning the other form would give.)
@Suite("Which transaction runs")
struct TransactionContextTests {
    /// The class of each transaction a closure ran in, in order.
    final class Ran: Sendable {
        private let kinds = Mutex<[String]>([])
        func record(_ transaction: BaseDataTransaction) { kinds.withLock { $0.append(String(describing: type(of: transaction))) } }
        var all: [String] { kinds.withLock { $0 } }
    }

    private static let asynchronous = "AsynchronousDataTransaction"

    @Test func anAsyncFunctionRunsTheAsynchronousTransaction() async throws {
        let stack = try makeStack()
        let ran = Ran()
        try await stack.perform { transaction in
            ran.record(transaction)
            transaction.create(Into<Person>()).name = "Ann"
        }
        let name = try await stack.perform { transaction in
            ran.record(transaction)
            let person = transaction.create(Into<Person>())
            person.name = "Bob"
            return person.name
        }
        try await stack.perform(asynchronous: { transaction in ran.record(transaction) })
        #expect(ran.all == Array(repeating: Self.asynchronous, count: 3))
        #expect(name == "Bob")
    }

    @MainActor
    @Test func mainActorCodeRunsTheAsynchronousTransaction() async throws {
        let stack = try makeStack()
        let ran = Ran()
        try await stack.perform { transaction in
            ran.record(transaction)
            transaction.create(Into<Person>()).name = "Ann"
        }
        #expect(ran.all == [Self.asynchronous])
        #expect(try stack.fetchCount(From<Person>()) == 1)
    }

    @Test func aTaskClosureRunsTheAsynchronousTransaction() async throws {
        let stack = try makeStack()
        let ran = Ran()
        try await Task {
            try await stack.perform { transaction in
                ran.record(transaction)
                transaction.create(Into<Person>()).name = "Ann"
            }
        }.value
        try await Task { @MainActor in
            try await stack.perform { transaction in ran.record(transaction) }
        }.value
        #expect(ran.all == [Self.asynchronous, Self.asynchronous])
    }

    @Test func synchronousCodeRunsTheSynchronousTransaction() throws {
        let stack = try makeStack()
        let ran = Ran()
        try stack.perform { transaction in ran.record(transaction) }
        try stack.perform(synchronous: { transaction in ran.record(transaction) })
        #expect(ran.all == ["SynchronousDataTransaction", "SynchronousDataTransaction"])
    }
}
