/// How a NaN is stored. SQLite has no NaN: it binds one as NULL, which would turn a required
/// `Double` into a constraint failure and an optional one into nil. Strata stores a NaN as the 8
/// bytes of its IEEE 754 bit pattern, big-endian, so every NaN (payload and sign included) reads
/// back with the same bits. In SQL such a value is a BLOB: it sorts after every number, and
/// comparisons in a `Where` treat it as greater than every number.
enum StoredDouble {
    /// The bytes that store `value`.
    static func bytes(of value: Double) -> [UInt8] {
        let bits = value.bitPattern
        return (0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * $0)) }
    }

    /// The double stored as `bytes`, or nil when they are not 8 bytes of a NaN.
    static func value(of bytes: [UInt8]) -> Double? {
        guard bytes.count == 8 else { return nil }
        let value = Double(bitPattern: bytes.reduce(0) { $0 << 8 | UInt64($1) })
        return value.isNaN ? value : nil
    }
}
