import Synchronization

/// The commits of one stack, in order, until the main context has applied them.
///
/// Every Strata commit marks itself in its store, and its `COMMIT` runs while this log's lock is
/// held, with its summary appended before the lock is released. On SQLite the mark is a count
/// (`strata_metadata.commits`, bumped inside the transaction): a reader that starts a snapshot and
/// reads the count knows exactly which of this stack's commits the snapshot holds, and a count the
/// log cannot account for means another stack or process committed. On a database server whose
/// writers run side by side the mark is the commit's transaction id, and the snapshot says which
/// ids it sees (``TransactionSnapshot``), so no row is updated by every commit.
final class CommitLog: Sendable {
    /// One storage's share of a commit.
    struct Part: Sendable {
        /// The store's commit count after this commit, or the commit's transaction id on a server
        /// whose writers run side by side.
        let counter: Int64
        let summary: CommitSummary
    }

    /// Above this many logged object changes the oldest parts are dropped and the main context
    /// re-reads its objects instead (a main actor that does not run must not make the log grow).
    static let capacity = 100_000

    private struct State {
        var parts: [Int32: [Part]] = [:]
        var size = 0
        /// Storages whose parts were dropped since the main context last caught up.
        var overflowed: Set<Int32> = []
    }

    private let state = Mutex(State())

    /// Runs `commit` (the `COMMIT` statements) under the lock and logs its parts when it succeeds;
    /// then, still under the lock so that listeners see commits in order, runs `published`.
    ///
    /// Without `underLock` (storages whose writers run side by side, whose parts are marked with
    /// transaction ids) `commit` runs before the lock is taken, so that a stack's transactions
    /// commit at once; parts may then be logged in another order than the server applied them,
    /// which the main context allows for (see `MainContext`).
    func commit(_ parts: [Int32: Part], underLock: Bool = true, _ commit: () throws(StrataError) -> Void,
                published: () -> Void = {}) throws(StrataError) {
        if !underLock { try commit() }
        try state.withLock { (state: inout State) throws(StrataError) in
            if underLock { try commit() }
            published()
            for (storage, part) in parts {
                state.parts[storage, default: []].append(part)
                state.size += part.summary.size
            }
            while state.size > Self.capacity, let storage = state.parts.max(by: { $0.value.count < $1.value.count })?.key,
                  let dropped = state.parts[storage]?.first {
                state.parts[storage]?.removeFirst()
                state.size -= dropped.summary.size
                state.overflowed.insert(storage)
            }
        }
    }

    /// Removes and returns a storage's parts up to `counter` (all when nil), and whether parts of
    /// it were dropped since the last call.
    func take(_ storage: Int32, upTo counter: Int64?) -> (parts: [Part], overflowed: Bool) {
        take(storage) { part in counter.map { part.counter <= $0 } ?? true }
    }

    /// Removes and returns a storage's parts that `snapshot` sees (marked with transaction ids),
    /// in the order they were logged, and whether parts of it were dropped since the last call.
    func take(_ storage: Int32, visibleIn snapshot: TransactionSnapshot) -> (parts: [Part], overflowed: Bool) {
        state.withLock { state in
            let all = state.parts[storage] ?? []
            var taken: [Part] = []
            var kept: [Part] = []
            for part in all {
                if snapshot.includes(part.counter) { taken.append(part) } else { kept.append(part) }
            }
            state.parts[storage] = kept
            state.size -= taken.reduce(0) { $0 + $1.summary.size }
            let overflowed = state.overflowed.remove(storage) != nil
            return (taken, overflowed)
        }
    }

    /// Removes and returns the first run of a storage's parts that `isIncluded` accepts.
    private func take(_ storage: Int32, while isIncluded: (Part) -> Bool) -> (parts: [Part], overflowed: Bool) {
        state.withLock { state in
            let all = state.parts[storage] ?? []
            let count = all.firstIndex { !isIncluded($0) } ?? all.count
            state.parts[storage] = Array(all[count...])
            let taken = Array(all[..<count])
            state.size -= taken.reduce(0) { $0 + $1.summary.size }
            let overflowed = state.overflowed.remove(storage) != nil
            return (taken, overflowed)
        }
    }

    /// Forgets every logged part, for a main context that has nothing to apply them to.
    func dropAll() {
        state.withLock { state in
            state.parts.removeAll()
            state.size = 0
        }
    }

    /// The storages with logged parts.
    var storages: [Int32] {
        state.withLock { Array($0.parts.keys) + Array($0.overflowed) }
    }
}

extension CommitSummary {
    /// How many object changes it holds, for the log's capacity.
    var size: Int { max(1, inserted.count + updated.count + deleted.count + toMany.count) }

    /// The part of a commit that concerns one storage.
    func part(of storage: Int32) -> CommitSummary {
        var part = CommitSummary()
        part.inserted = inserted.filter { $0.storage == storage }
        part.updated = updated.filter { $0.key.storage == storage }
        part.deleted = deleted.filter { $0.key.storage == storage }
        part.toMany = toMany.filter { $0.key.storage == storage }
        part.relationshipsChanged = relationshipsChanged
        return part
    }
}
