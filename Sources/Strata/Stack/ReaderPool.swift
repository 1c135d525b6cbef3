import Synchronization

/// Read-only connections kept between read contexts, so a server's many small reads reuse open
/// connections and their prepared statements.
final class ReaderPool: Sendable {
    /// A connection parked in the pool.
    // `@unchecked Sendable` is sound: a parked connection is used by nobody. A read context takes
    // it out of the mutex-guarded pool (and is then its only user, on one thread at a time) and
    // puts it back when done, so the connection never has two users at once.
    private struct Parked: @unchecked Sendable {
        let connection: any DatabaseConnection
        /// When it was parked.
        let since: ContinuousClock.Instant
    }

    /// The most connections kept per storage.
    static let capacity = 4

    private let parked = Mutex<[Int32: [Parked]]>([:])
    private let idleSweep = IdleSweep()

    /// A parked connection of a storage, or a new one.
    func take(_ handle: StorageHandle) throws(StrataError) -> any DatabaseConnection {
        // A server may have closed parked connections meanwhile (a restart): those are dropped.
        while let reused = parked.withLock({ $0[handle.index]?.popLast() }) {
            if !reused.connection.isBroken { return reused.connection }
        }
        return try handle.backend.reader()
    }

    /// Parks connections a read context no longer uses; those the server closed, and those
    /// beyond the capacity, are let go. With `closingAfter`, a connection left parked that long
    /// is closed.
    func giveBack(_ connections: [Int32: any DatabaseConnection], closingAfter idleTimeout: Duration? = nil) {
        let now = ContinuousClock.now
        let boxes = connections.filter { !$0.value.isBroken }.map { ($0.key, Parked(connection: $0.value, since: now)) }
        parked.withLock { pool in
            for (storage, box) in boxes where pool[storage, default: []].count < Self.capacity {
                pool[storage, default: []].append(box)
            }
        }
        if let idleTimeout, !boxes.isEmpty { idleSweep.schedule(after: idleTimeout) { [weak self] in self?.closeIdle(after: idleTimeout) } }
    }

    /// Closes the connections parked for `idleTimeout` or longer, and returns how long until the
    /// next one would be. The oldest are first in each list, since reads take the newest.
    private func closeIdle(after idleTimeout: Duration) -> Duration? {
        let now = ContinuousClock.now
        let (idle, next) = parked.withLock { pool -> ([Parked], Duration?) in
            var idle: [Parked] = []
            var next: Duration?
            for storage in pool.keys {
                let stale = pool[storage]!.prefix { now - $0.since >= idleTimeout }
                idle += stale
                pool[storage]!.removeFirst(stale.count)
                if let oldest = pool[storage]!.first { next = min(next ?? idleTimeout, idleTimeout - (now - oldest.since)) }
            }
            return (idle, next)
        }
        // Closed as they go (on the sweep's dispatch thread).
        _ = consume idle
        return next
    }

    /// Closes every parked connection (the stack is closing, and no read context runs).
    func closeAll() {
        let all = parked.withLock { pool -> [Int32: [Parked]] in
            defer { pool.removeAll() }
            return pool
        }
        // Closed here, outside the lock, as the last references go.
        _ = consume all
    }

    /// How many connections are parked for a storage.
    func count(_ storage: Int32) -> Int {
        parked.withLock { $0[storage]?.count ?? 0 }
    }
}
