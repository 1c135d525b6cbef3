/// SQLite's `ORDER BY` comparison (BINARY collation), so that a list kept sorted in Swift agrees
/// exactly with the order SQLite returns its rows in.
enum SQLiteOrdering {
    /// SQLite sorts NULL first, then numbers, then text, then blobs.
    private static func rank(_ value: SQLValue) -> Int {
        switch value {
        case .null: return 0
        case .integer, .real: return 1
        case .text: return 2
        case .blob: return 3
        }
    }

    /// -1, 0 or 1 as `lhs` sorts before, with, or after `rhs` in ascending order.
    static func compare(_ lhs: SQLValue, _ rhs: SQLValue) -> Int {
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.real(let a), .real(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.integer(let a), .real(let b)): return compare(a, b)
        case (.real(let a), .integer(let b)): return -compare(b, a)
        case (.text(let a), .text(let b)): return compareBytes(a.utf8, b.utf8)
        case (.blob(let a), .blob(let b)): return compareBytes(a, b)
        default:
            let (a, b) = (rank(lhs), rank(rhs))
            return a < b ? -1 : (a == b ? 0 : 1)
        }
    }

    /// An integer against a double, exactly (a conversion to Double alone would round large integers).
    private static func compare(_ integer: Int64, _ double: Double) -> Int {
        let converted = Double(integer)
        if converted < double { return -1 }
        if converted > double { return 1 }
        guard double >= -9.2e18, double <= 9.2e18 else { return 0 }
        let truncated = Int64(double)
        return integer < truncated ? -1 : (integer == truncated ? 0 : 1)
    }

    /// memcmp order, shorter first on a common prefix: how SQLite compares text and blobs.
    private static func compareBytes<A: Sequence<UInt8>, B: Sequence<UInt8>>(_ lhs: A, _ rhs: B) -> Int {
        var left = lhs.makeIterator()
        var right = rhs.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let a?, let b?) where a != b: return a < b ? -1 : 1
            default: continue
            }
        }
    }
}
