import StrataSyncCore
import StrataTestSupport
import Testing

/// The binary form a node stores states in reads back equal, shares a commit's timestamp, still
/// reads its first version, and refuses bytes that are not a state.
@Suite("Stored form of states")
struct StoredFormTests {
    @Test(arguments: Array(UInt64(1)...60))
    func randomStatesReadBackEqual(seed: UInt64) {
        var random = SeededGenerator(state: seed)
        let state = SyncJSONCodecTests.randomChange(using: &random).state
        #expect(SyncedObject(storedBytes: state.storedBytes) == state, "seed \(seed)")
    }

    @Test func writesOfOneCommitStoreTheirTimestampOnce() {
        let stamp = SyncTimestamp(milliseconds: 1_733_380_000_000, counter: 0, node: "0193a0b2-5c1e-7d3a-9f00-1b2c3d4e5f60")
        var one = SyncedObject()
        one.set("a", to: .integer(1), at: stamp)
        var five = one
        for name in ["b", "c", "d", "e"] { five.set(name, to: .integer(1), at: stamp) }
        // Each further attribute costs its name, its value and one byte for the timestamp.
        #expect(five.storedBytes.count - one.storedBytes.count == 4 * (2 + 9 + 1))
        #expect(SyncedObject(storedBytes: five.storedBytes) == five)
    }

    @Test func theFirstVersionStillReads() {
        // Version 1: every timestamp written out. One attribute "n" = 7 at 5.1@x, nothing else.
        let bytes: [UInt8] = [1, 1, 1, UInt8(ascii: "n"), 1, 7, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 1, 1, UInt8(ascii: "x"),
                              0, 0, 0, 0]
        var expected = SyncedObject()
        expected.set("n", to: .integer(7), at: SyncTimestamp(milliseconds: 5, counter: 1, node: "x"))
        #expect(SyncedObject(storedBytes: bytes) == expected)
    }

    @Test func bytesThatAreNotAStateAreRefused() {
        var random = SeededGenerator(state: 7)
        let bytes = SyncJSONCodecTests.randomChange(using: &random).state.storedBytes
        for length in 0..<bytes.count {
            #expect(SyncedObject(storedBytes: Array(bytes[..<length])) == nil, "cut at \(length)")
        }
        #expect(SyncedObject(storedBytes: [3]) == nil, "an unknown version")
        // A timestamp naming the first one written out, when none was.
        #expect(SyncedObject(storedBytes: [2, 1, 1, UInt8(ascii: "n"), 0, 1, 0, 0, 0, 0, 0]) == nil)
        #expect(SyncedObject(storedBytes: bytes + [0]) == nil, "a byte too many")
    }
}
