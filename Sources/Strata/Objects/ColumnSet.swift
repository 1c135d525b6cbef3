/// A set of column ordinals, one bit each: the first 64 inline, the rest in an array.
public struct ColumnSet: Hashable, Sendable {
    private var low: UInt64 = 0
    private var high: [UInt64] = []

    /// An empty set.
    public init() {}

    /// Adds an ordinal; returns whether it was new.
    @inline(__always) @discardableResult
    mutating func insert(_ ordinal: Int) -> Bool {
        if ordinal < 64 {
            let bit = UInt64(1) << UInt64(ordinal)
            defer { low |= bit }
            return low & bit == 0
        }
        let word = ordinal / 64 - 1
        while high.count <= word { high.append(0) }
        let bit = UInt64(1) << UInt64(ordinal % 64)
        defer { high[word] |= bit }
        return high[word] & bit == 0
    }

    /// Whether an ordinal is in the set.
    @inline(__always)
    func contains(_ ordinal: Int) -> Bool {
        if ordinal < 64 { return low & (UInt64(1) << UInt64(ordinal)) != 0 }
        let word = ordinal / 64 - 1
        return word < high.count && high[word] & (UInt64(1) << UInt64(ordinal % 64)) != 0
    }

    /// Whether the set is empty.
    var isEmpty: Bool { low == 0 && high.allSatisfy { $0 == 0 } }

    /// Removes everything.
    mutating func removeAll() {
        low = 0
        high.removeAll()
    }

    /// The ordinals in ascending order.
    var ordinals: [Int] {
        var result: [Int] = []
        for bit in 0..<64 where low & (UInt64(1) << UInt64(bit)) != 0 { result.append(bit) }
        for (index, word) in high.enumerated() {
            for bit in 0..<64 where word & (UInt64(1) << UInt64(bit)) != 0 { result.append((index + 1) * 64 + bit) }
        }
        return result
    }
}
