/// A node's hybrid logical clock: it gives each local change a timestamp later than every
/// timestamp the node has made or seen, close to wall-clock time, so the last writer by this clock
/// is the last writer a person would name, and a node whose clock runs behind still orders its
/// changes after those it has seen.
public struct HybridLogicalClock: Sendable {
    /// The node whose changes this clock stamps.
    public let node: String
    /// The latest timestamp made or seen.
    public private(set) var latest: SyncTimestamp

    /// A clock for `node`, starting after `latest` (a restarted node passes the last timestamp it
    /// stored, so it never goes back).
    public init(node: String, after latest: SyncTimestamp? = nil) {
        self.node = node
        self.latest = latest ?? SyncTimestamp(milliseconds: 0, counter: 0, node: node)
    }

    /// The timestamp of a local change made when the wall clock reads `wallClock` milliseconds.
    public mutating func stamp(wallClock: Int64) -> SyncTimestamp {
        advance(to: wallClock, seen: nil)
    }

    /// Notes a timestamp received from another node, so every later local change orders after it.
    public mutating func receive(_ remote: SyncTimestamp, wallClock: Int64) {
        _ = advance(to: wallClock, seen: remote)
    }

    private mutating func advance(to wallClock: Int64, seen remote: SyncTimestamp?) -> SyncTimestamp {
        let physical = max(wallClock, latest.milliseconds, remote?.milliseconds ?? .min)
        var counter: UInt32 = 0
        if physical == latest.milliseconds { counter = max(counter, latest.counter &+ 1) }
        if let remote, physical == remote.milliseconds { counter = max(counter, remote.counter &+ 1) }
        // A counter that would wrap moves to the next millisecond instead.
        let next = counter == 0 && physical == latest.milliseconds
            ? SyncTimestamp(milliseconds: physical + 1, counter: 0, node: node)
            : SyncTimestamp(milliseconds: physical, counter: counter, node: node)
        latest = next
        return next
    }
}
