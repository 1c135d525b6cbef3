import Foundation
import StrataSyncCore
import StrataTestSupport
import Testing

/// Global IDs: UUIDs of version 7 that carry their time, never collide, and read back.
@Suite("Global IDs")
struct GlobalIDTests {
    @Test func anIDCarriesItsVersionVariantAndTime() throws {
        var random = SeededGenerator(state: 7)
        let id = GlobalID.make(milliseconds: 1_733_380_000_123, using: &random)
        let characters = Array(id.text)
        #expect(characters.count == 36 && characters[14] == "7", "version 7: \(id)")
        #expect(["8", "9", "a", "b"].contains(characters[19]), "the RFC 9562 variant: \(id)")
        #expect(id.milliseconds == 1_733_380_000_123)
        #expect(id.text == id.text.lowercased())
        #expect(UUID(uuidString: id.text) != nil, "Foundation reads it")
        #expect(GlobalID(id.text.uppercased()) == id)
        #expect(try JSONDecoder().decode(GlobalID.self, from: JSONEncoder().encode(id)) == id)
    }

    @Test func idsSortByTimeAndNeverCollide() {
        var random = SeededGenerator(state: 11)
        var seen = Set<GlobalID>()
        var previous: GlobalID?
        for millisecond in stride(from: Int64(1_700_000_000_000), to: 1_700_000_010_000, by: 1) {
            let id = GlobalID.make(milliseconds: millisecond, using: &random)
            #expect(seen.insert(id).inserted)
            if let previous { #expect(previous < id) }
            previous = id
        }
        for _ in 0..<10_000 { seen.insert(GlobalID.make(milliseconds: 1_700_000_000_000)) }
        #expect(seen.count == 20_000, "10,000 IDs made in one millisecond are all different")
    }

    @Test func otherTextIsRefused() {
        for text in ["", "0193a0b2-5c1e-7d3a-9f00-1b2c3d4e5f6", "0193a0b25c1e-7d3a-9f00-1b2c3d4e5f600", "0193a0b2-5c1e-7d3a-9f00-1b2c3d4e5f6g",
                     "{0193a0b2-5c1e-7d3a-9f00-1b2c3d4e5f60}"] {
            #expect(GlobalID(text) == nil, "'\(text)'")
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([GlobalID].self, from: Data(#"["dog-1"]"#.utf8)) }
    }
}
