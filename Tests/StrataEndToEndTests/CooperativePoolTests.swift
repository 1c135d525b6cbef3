// Left out of builds without the PostgreSQL trait (see Package.swift).
#if PostgreSQL
import Foundation
import Strata
import StrataPostgres
import StrataTestSupport
import Synchronization
import Testing

/// Transactions on PostgreSQL never hold Swift's cooperative threads while they wait for the
/// server: their closures and statements run on the stack's writer lanes (dispatch queues), and
/// an awaiting `perform` is a suspended task, so a timer on the same pool keeps its schedule.
///
/// A timer's schedule measures the whole process, so this suite runs only by itself
/// (`STRATA_TEST_ALONE=1 swift test --filter CooperativePoolTests`, a step of `.ci/run`): beside the
/// other suites, their own work on the same two threads would decide the figure.
@Suite("PostgreSQL and Swift's cooperative pool", Postgres.available,
       .enabled(if: ProcessInfo.processInfo.environment["STRATA_TEST_ALONE"] == "1", "it measures a timer's schedule, so it runs by itself"),
       .timeLimit(.minutes(5)))
struct CooperativePoolTests {
    @Test func fiveHundredConcurrentPerformsLeaveATimerOnScheduleAndAllFinish() async throws {
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: Postgres.newDatabaseURL("pool")))
        let done = Atomic(false)
        let lateness = Mutex<[Duration]>([])
        let timer = Task {
            let clock = ContinuousClock()
            while !done.load(ordering: .relaxed) {
                let due = clock.now + .milliseconds(10)
                try await Task.sleep(until: due, clock: clock)
                let late = clock.now - due
                lateness.withLock { $0.append(late) }
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<500 {
                group.addTask {
                    try await stack.perform { transaction in
                        let product = transaction.create(Into<Product>())
                        product.sku = "P-\(index)"
                        product.stock = Int32(index)
                    }
                }
            }
            try await group.waitForAll()
        }
        done.store(true, ordering: .relaxed)
        try await timer.value
        #expect(try await stack.read { reader in try reader.fetchCount(From<Product>()) } == 500)
        let ticks = lateness.withLock { $0 }
        let worst = ticks.max() ?? .zero
        #expect(ticks.count >= 2)
        #expect(worst <= .milliseconds(50), "\(ticks.count) ticks, the latest \(worst) behind")
    }
}
#endif
