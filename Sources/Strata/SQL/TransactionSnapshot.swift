/// Which transactions a read snapshot of a database server sees, as PostgreSQL's
/// `pg_current_snapshot()` reports it: every transaction id below `lowest` had completed when the
/// snapshot was taken, none from `next` on had, and of those in between, all but `inProgress` had.
///
/// A server whose writers run side by side marks each commit with its transaction id instead of
/// a count in a row every commit updates (which would make the writers wait for each other). A
/// reader then knows which of its stack's commits a snapshot holds (``includes(_:)``), and how
/// many transactions completed between two snapshots (``completed(since:)``): more than its
/// stack's own commits means another writer committed, or a transaction was rolled back.
package struct TransactionSnapshot: Sendable, Equatable, CustomStringConvertible {
    /// Every transaction below it had completed (PostgreSQL's `xmin`).
    package let lowest: Int64
    /// The first transaction id not yet given out (`xmax`).
    package let next: Int64
    /// Transactions between the two still running, in ascending order (`xip`).
    package let inProgress: [Int64]

    /// A snapshot from its parts; `inProgress` is sorted here.
    package init(lowest: Int64, next: Int64, inProgress: [Int64]) {
        self.lowest = lowest
        self.next = next
        self.inProgress = inProgress.sorted()
    }

    /// Reads PostgreSQL's text form, `xmin:xmax:xip,xip,...` (the list may be empty); nil for
    /// anything else.
    package init?(text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let lowest = Int64(parts[0]), let next = Int64(parts[1]), lowest <= next else { return nil }
        var inProgress: [Int64] = []
        for item in parts[2].split(separator: ",") {
            guard let id = Int64(item), id >= lowest, id < next else { return nil }
            inProgress.append(id)
        }
        self.init(lowest: lowest, next: next, inProgress: inProgress)
    }

    /// Whether the snapshot sees the work of transaction `id`, once that transaction committed.
    package func includes(_ id: Int64) -> Bool {
        if id < lowest { return true }
        if id >= next { return false }
        return !isInProgress(id)
    }

    /// How many transactions completed (committed or rolled back) after `earlier` was taken and
    /// before this snapshot was: those `earlier` did not see as complete and this one does.
    package func completed(since earlier: TransactionSnapshot) -> Int64 {
        // Ids from `earlier.next` up to `next`, less those still running now...
        var count = max(0, next - earlier.next)
        count -= Int64(inProgress.count { $0 >= earlier.next })
        // ...and those running then that are complete now.
        count += Int64(earlier.inProgress.count { $0 < next && !isInProgress($0) })
        return count
    }

    /// The ids of the transactions ``completed(since:)`` counts, in ascending order; nil when
    /// there are more than `limit`.
    package func completedIDs(since earlier: TransactionSnapshot, limit: Int) -> [Int64]? {
        guard completed(since: earlier) <= Int64(limit) else { return nil }
        var ids = earlier.inProgress.filter { $0 < next && !isInProgress($0) }
        var id = max(earlier.next, lowest)
        // Below `lowest` every id is complete; `earlier` saw none from `earlier.next` on.
        if earlier.next < lowest { ids += (earlier.next..<lowest).map { $0 } }
        while id < next {
            if !isInProgress(id) { ids.append(id) }
            id += 1
        }
        return ids.sorted()
    }

    private func isInProgress(_ id: Int64) -> Bool {
        var low = 0
        var high = inProgress.count
        while low < high {
            let middle = (low + high) / 2
            if inProgress[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < inProgress.count && inProgress[low] == id
    }

    /// PostgreSQL's text form.
    package var description: String {
        "\(lowest):\(next):" + inProgress.map(String.init).joined(separator: ",")
    }
}
