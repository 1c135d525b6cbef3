/// An integer attribute marked `merge: add`: each node's increments and decrements are kept
/// apart and only ever grow, so merging takes each node's larger totals and increments made on
/// several devices at once add up instead of overwriting each other.
public struct SyncCounter: Hashable, Sendable, Codable {
    /// Per node, the sum of its increments and the sum of its decrements (each at least 0).
    public internal(set) var contributions: [String: Totals]

    /// One node's totals.
    public struct Totals: Hashable, Sendable, Codable {
        /// The sum of its increments.
        public var up: Int64
        /// The sum of its decrements, as a positive number.
        public var down: Int64
    }

    /// A counter at zero.
    public init() {
        contributions = [:]
    }

    /// The counter's value: every increment minus every decrement (wrapping, as the stored
    /// integer would).
    public var value: Int64 {
        contributions.values.reduce(0) { $0 &+ $1.up &- $1.down }
    }

    /// Adds `delta` (negative to decrement) as `node`'s change.
    public mutating func add(_ delta: Int64, by node: String) {
        var totals = contributions[node] ?? Totals(up: 0, down: 0)
        if delta >= 0 { totals.up &+= delta } else { totals.down &+= delta == .min ? .max : -delta }
        contributions[node] = totals
    }

    /// The counter as one node's totals alone: what that node sends after a change, since its
    /// totals carry all its changes so far (a lost or repeated message counts nothing twice).
    public func only(_ node: String) -> SyncCounter {
        var result = SyncCounter()
        result.contributions[node] = contributions[node]
        return result
    }

    /// Both counters' changes: each node's larger totals.
    public func merged(with other: SyncCounter) -> SyncCounter {
        var result = self
        for (node, theirs) in other.contributions {
            let ours = result.contributions[node] ?? Totals(up: 0, down: 0)
            result.contributions[node] = Totals(up: max(ours.up, theirs.up), down: max(ours.down, theirs.down))
        }
        return result
    }
}
