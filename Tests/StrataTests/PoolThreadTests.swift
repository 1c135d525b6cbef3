import Dispatch
import Foundation
import StrataTestSupport
import Synchronization
import Testing
@testable import Strata

/// Transactions never hold a thread of Swift's cooperative pool: a transaction runs on a writer
/// lane (a dispatch queue of its own), and one waiting for a lane waits as a suspended task. So
/// work on the pool goes on however many transactions are running or waiting.
@Suite("Transactions hold no thread of the cooperative pool", .timeLimit(.minutes(2)))
struct PoolThreadTests {
    /// 500 `perform` calls at once, every lane held inside a transaction's closure: a task on the
    /// cooperative pool still runs to its end before any transaction is let go. (Were a waiting or
    /// running transaction to hold a pool thread, the pool's few threads would all be taken and
    /// the task could not run: the test would not end.)
    @Test func fiveHundredPerformsAtOnceLeaveThePoolFreeAndAllCommit() async throws {
        // The waiting transactions wait as long as the ticks below take, however busy the machine.
        let stack = try makeStack(busyTimeout: .seconds(600))
        let lanes = stack.core.writerCapacity
        let inside = Inside()
        let gate = DispatchSemaphore(value: 0)
        let performs = Task.detached {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<500 {
                    group.addTask {
                        try await stack.perform { transaction in
                            if inside.count.add(1, ordering: .relaxed).newValue <= lanes { gate.wait() }
                            transaction.create(Into<Person>()).name = "p\(index)"
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        // Every lane is held, and the other transactions wait for one.
        while inside.count.load(ordering: .relaxed) < lanes { try await Task.sleep(for: .milliseconds(1)) }
        // Work on the pool, from several tasks at once, runs to its end meanwhile.
        let ticks = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var ticks = 0
                    for _ in 0..<20 {
                        try await Task.sleep(for: .milliseconds(1))
                        ticks += 1
                    }
                    return ticks
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(ticks == 160)
        for _ in 0..<lanes { gate.signal() }
        try await performs.value
        #expect(try await stack.read { reader in try reader.fetchCount(From<Person>()) } == 500)
    }
}

/// How many transactions have entered their closure.
private final class Inside: Sendable {
    let count = Atomic(0)
}
