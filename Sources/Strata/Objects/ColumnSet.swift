/// A set of column ordinals, one bit each: the first 64 inline, the rest in an array.
public struct ColumnSet: Hashable, Sendable {
    /// The ordinals below 64, one bit each.
    private(set) var low: UInt64 = 0
    /// The ordinals from 64 on, 64 to a word; nil while there are none.
    private(set) var high: [UInt64]? = nil

    /// An empty set.
    public init() {}

    /// A set of the given words.
    init(low: UInt64, high: [UInt64]?) {
        self.low = low
        self.high = high
    }

    /// Adds an ordinal; returns whether it was new.
    @inline(__always) @discardableResult
    mutating func insert(_ ordinal: Int) -> Bool {
        if ordinal < 64 {
            let bit = UInt64(1) << UInt64(ordinal)
            defer { low |= bit }
            return low & bit == 0
        }
        let word = ordinal / 64 - 1
        var words = high ?? []
        while words.count <= word { words.append(0) }
        let bit = UInt64(1) << UInt64(ordinal % 64)
        let isNew = words[word] & bit == 0
        words[word] |= bit
        high = words
        return isNew
    }

    /// Whether an ordinal is in the set.
    @inline(__always)
    func contains(_ ordinal: Int) -> Bool {
        if ordinal < 64 { return low & (UInt64(1) << UInt64(ordinal)) != 0 }
        let word = ordinal / 64 - 1
        guard let high, word < high.count else { return false }
        return high[word] & (UInt64(1) << UInt64(ordinal % 64)) != 0
    }

    /// Removes an ordinal.
    mutating func remove(_ ordinal: Int) {
        if ordinal < 64 {
            low &= ~(UInt64(1) << UInt64(ordinal))
        } else if var words = high, ordinal / 64 - 1 < words.count {
            words[ordinal / 64 - 1] &= ~(UInt64(1) << UInt64(ordinal % 64))
            high = words
        }
    }

    /// Whether the set is empty.
    var isEmpty: Bool { low == 0 && (high?.allSatisfy { $0 == 0 } ?? true) }

    /// Removes everything.
    mutating func removeAll() {
        low = 0
        high = nil
    }

    /// Adds every ordinal of another set.
    mutating func formUnion(_ other: ColumnSet) {
        for ordinal in other.ordinals { insert(ordinal) }
    }

    /// The ordinals in ascending order.
    var ordinals: [Int] {
        var result: [Int] = []
        for bit in 0..<64 where low & (UInt64(1) << UInt64(bit)) != 0 { result.append(bit) }
        for (index, word) in (high ?? []).enumerated() {
            for bit in 0..<64 where word & (UInt64(1) << UInt64(bit)) != 0 { result.append((index + 1) * 64 + bit) }
        }
        return result
    }
}
