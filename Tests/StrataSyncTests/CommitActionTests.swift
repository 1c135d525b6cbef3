import Foundation
import Strata
import StrataSyncEngine
import StrataTestSupport
import Synchronization
import Testing

/// The action a sync engine runs after each recorded commit (a CloudStore's wake-up of its
/// session) is called once per commit, and the same way after many commits as after one.
@Suite struct CommitActionTests {
    @Test func theActionAfterACommitIsCalledOncePerCommitThroughAStackThatDoesNotGrow() async throws {
        let stack = DataStack(Planner.schemaHistory)
        try await stack.addStorage(SQLiteStore(fileURL: TestFolders.url("commit-action").appendingPathExtension("sqlite")))
        let engine = SyncEngine(stack: stack, role: .client, node: "device")
        try await engine.start()
        let depths = Mutex<[Int]>([])
        engine.onCommit {
            let depth = Thread.callStackSymbols.count
            depths.withLock { $0.append(depth) }
        }
        for number in 0..<120 {
            try await stack.perform { transaction in transaction.create(Into<Tag>()).name = "tag \(number)" }
        }
        // A commit that records nothing calls nothing.
        try await stack.perform { _ in }
        let seen = depths.withLock { $0 }
        #expect(seen.count == 120)
        // Each call ran as deep in the stack as the first: the action was not wrapped again
        // commit by commit (it once was, by a conversion at every read of its lock).
        #expect(Set(seen).count == 1, "call depths went from \(seen.first ?? 0) to \(seen.last ?? 0)")
        engine.stop()
        await stack.close()
    }
}
