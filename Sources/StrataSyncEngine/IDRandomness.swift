/// The random bits of the global IDs a node makes: xoshiro256** seeded once from the system's
/// generator. An ID takes 74 of them; asking the system for each (a system call apiece on Linux)
/// was a measurable part of recording a commit. Collisions need two nodes with the same 256-bit
/// seed, or one node's stream to repeat, neither of which happens in practice.
struct IDRandomness: RandomNumberGenerator {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    /// A generator seeded from the system's random numbers.
    init() {
        var system = SystemRandomNumberGenerator()
        state = (system.next(), system.next(), system.next(), system.next())
        if state == (0, 0, 0, 0) { state.0 = 1 }   // the one seed xoshiro cannot leave
    }

    mutating func next() -> UInt64 {
        let result = rotate(state.1 &* 5, 7) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = rotate(state.3, 45)
        return result
    }

    private func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }
}
