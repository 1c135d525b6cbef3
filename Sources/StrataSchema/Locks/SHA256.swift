/// SHA-256 (FIPS 180-4), small and dependency-free, for version locks.
///
/// Whole blocks are compressed straight from the caller's buffer, with no copy; the tests check
/// the standard's test vectors.
public struct SHA256: Sendable {
    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    private var state: [UInt32] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    /// Starts an empty hash.
    public init() {}

    /// Adds bytes to the message.
    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            update(buffer)
        }
        if handled == nil { update(Array(bytes)) }
    }

    /// Adds contiguous bytes: whole blocks are compressed straight from the buffer.
    private mutating func update(_ buffer: UnsafeBufferPointer<UInt8>) {
        length &+= UInt64(buffer.count)
        var rest = buffer[...]
        if !pending.isEmpty {
            let taken = min(64 - pending.count, rest.count)
            pending.append(contentsOf: rest.prefix(taken))
            rest = rest.dropFirst(taken)
            guard pending.count == 64 else { return }
            pending.withUnsafeBufferPointer { compress($0[...]) }
            pending.removeAll(keepingCapacity: true)
        }
        while rest.count >= 64 {
            compress(rest.prefix(64))
            rest = rest.dropFirst(64)
        }
        pending.append(contentsOf: rest)
    }

    /// Pads the message and returns the 32-byte digest.
    public consuming func finalize() -> [UInt8] {
        let bitLength = length &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        tail.withUnsafeBufferPointer { buffer in
            for start in stride(from: 0, to: buffer.count, by: 64) { compress(buffer[start..<(start + 64)]) }
        }
        return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) } }
    }

    /// The digest of a whole message.
    public static func hash<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Processes one 64-byte block.
    ///
    /// Written for unoptimised builds too (the build plugin runs a debug-built `strata`): masking
    /// shifts (`&>>`, `&<<`) instead of the generic smart shifts, rotations spelled out, and the
    /// round constants read through a pointer, so a debug build hashes a large model in a fraction of
    /// the time the straightforward spelling takes.
    private mutating func compress(_ block: Slice<UnsafeBufferPointer<UInt8>>) {
        let bytes = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: block))
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            for index in 0..<16 {
                schedule[index] = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: index &* 4, as: UInt32.self))
            }
            for index in 16..<64 {
                let w15 = schedule[index &- 15]
                let w2 = schedule[index &- 2]
                let s0 = (w15 &>> 7 | w15 &<< 25) ^ (w15 &>> 18 | w15 &<< 14) ^ (w15 &>> 3)
                let s1 = (w2 &>> 17 | w2 &<< 15) ^ (w2 &>> 19 | w2 &<< 13) ^ (w2 &>> 10)
                schedule[index] = schedule[index &- 16] &+ s0 &+ schedule[index &- 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
            Self.roundConstants.withUnsafeBufferPointer { constants in
                for index in 0..<64 {
                    let sum1 = (e &>> 6 | e &<< 26) ^ (e &>> 11 | e &<< 21) ^ (e &>> 25 | e &<< 7)
                    let choice = (e & f) ^ (~e & g)
                    let temp1 = h &+ sum1 &+ choice &+ constants[index] &+ schedule[index]
                    let sum0 = (a &>> 2 | a &<< 30) ^ (a &>> 13 | a &<< 19) ^ (a &>> 22 | a &<< 10)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    h = g; g = f; f = e; e = d &+ temp1
                    d = c; c = b; b = a; a = temp1 &+ sum0 &+ majority
                }
            }
            state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d
            state[4] &+= e; state[5] &+= f; state[6] &+= g; state[7] &+= h
        }
    }
}
