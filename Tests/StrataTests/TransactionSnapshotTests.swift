import Testing
@testable import Strata

/// A server snapshot's text, which transactions it sees, and how many completed between two:
/// checked against a transaction-by-transaction count over random histories.
@Suite("Transaction snapshots")
struct TransactionSnapshotTests {
    @Test func theServersTextIsRead() throws {
        let snapshot = try #require(TransactionSnapshot(text: "10:20:12,15"))
        #expect(snapshot == TransactionSnapshot(lowest: 10, next: 20, inProgress: [15, 12]))
        #expect(snapshot.description == "10:20:12,15")
        #expect(TransactionSnapshot(text: "7:7:") == TransactionSnapshot(lowest: 7, next: 7, inProgress: []))
    }

    @Test(arguments: ["", "1:2", "a:2:", "5:3:", "1:5:7", "1:5:0", "1:5:x", "1:2:3:4"])
    func textThatIsNotASnapshotIsRefused(text: String) {
        #expect(TransactionSnapshot(text: text) == nil)
    }

    @Test func aSnapshotSeesWhatCompletedBeforeIt() {
        let snapshot = TransactionSnapshot(lowest: 10, next: 20, inProgress: [12, 15])
        #expect(snapshot.includes(3) && snapshot.includes(10) && snapshot.includes(11) && snapshot.includes(19))
        #expect(!snapshot.includes(12) && !snapshot.includes(15) && !snapshot.includes(20) && !snapshot.includes(25))
    }

    /// Random histories: transactions start in id order and complete in any order; each pair of
    /// snapshots taken along the way counts, and names, exactly the transactions that completed
    /// between them.
    @Test(arguments: 1...40)
    func completedTransactionsAreCountedBetweenAnyTwoSnapshots(seed: UInt64) {
        var random = SplitMix(state: seed)
        var next: Int64 = 100
        var running: Set<Int64> = []
        var completedAt: [Int64: Int] = [:]
        var snapshots: [(snapshot: TransactionSnapshot, step: Int)] = []
        for step in 0..<60 {
            switch random.next() % 3 {
            case 0:
                running.insert(next)
                next += 1
            case 1:
                if let id = running.randomElement(using: &random) {
                    running.remove(id)
                    completedAt[id] = step
                }
            default:
                let lowest = running.min() ?? next
                snapshots.append((TransactionSnapshot(lowest: lowest, next: next, inProgress: Array(running)), step))
            }
        }
        for (earlierIndex, earlier) in snapshots.enumerated() {
            for later in snapshots[earlierIndex...] {
                let expected = completedAt.values.filter { $0 >= earlier.step && $0 < later.step }.count
                #expect(later.snapshot.completed(since: earlier.snapshot) == Int64(expected))
                let ids = completedAt.filter { $0.value >= earlier.step && $0.value < later.step }.keys.sorted()
                #expect(later.snapshot.completedIDs(since: earlier.snapshot, limit: 1_000) == ids)
                #expect(later.snapshot.completedIDs(since: earlier.snapshot, limit: ids.count - 1) == nil)
                for (id, step) in completedAt {
                    #expect(later.snapshot.includes(id) == (step < later.step))
                }
            }
        }
    }
}
