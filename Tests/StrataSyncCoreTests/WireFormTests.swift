import Foundation
import StrataSyncCore
import Testing

/// Values, timestamps and object states in JSON: each kind exactly, reals never read as integers,
/// and bad input refused.
@Suite("Sync states as JSON")
struct WireFormTests {
    private func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func everyKindOfValueHasItsForm() throws {
        let cases: [(SyncValue, String)] = [
            (.null, "null"), (.integer(-9_223_372_036_854_775_808), "-9223372036854775808"), (.text("Rex"), #""Rex""#),
            (.real(1.5), #"{"real":1.5}"#), (.real(2), #"{"real":2}"#), (.real(.nan), #"{"real":"nan"}"#),
            (.real(.infinity), #"{"real":"inf"}"#), (.real(-.infinity), #"{"real":"-inf"}"#), (.blob([0, 1, 255]), #"{"base64":"AAH\/"}"#),
        ]
        for (value, text) in cases {
            #expect(try json([value]) == "[" + text + "]", "\(value)")
            #expect(try JSONDecoder().decode([SyncValue].self, from: Data(("[" + text + "]").utf8)) == [value], "\(text)")
        }
    }

    @Test func badValuesAreRefused() {
        for text in [#"[1.5]"#, #"[{"real":"big"}]"#, #"[{"base64":"%%"}]"#, #"[{"other":1}]"#, "[true]"] {
            #expect(throws: DecodingError.self, "\(text)") { try JSONDecoder().decode([SyncValue].self, from: Data(text.utf8)) }
        }
    }

    @Test func aStateReadsBackEqual() throws {
        var object = SyncedObject()
        let stamp = SyncTimestamp(milliseconds: 1_733_380_000_000, counter: 2, node: "a")
        object.set("name", to: .text("Rex"), at: stamp)
        object.set("weight", to: .real(.nan), at: stamp)
        object.add(3, to: "visits", by: "a")
        object.insert("dog-1", into: "pets", at: stamp)
        object.order("friends", as: ["x", "y"], at: stamp)
        object.delete(at: stamp)
        let data = try JSONEncoder().encode(object)
        #expect(try JSONDecoder().decode(SyncedObject.self, from: data) == object)
        #expect(try json(stamp) == #""1733380000000.2@a""#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([SyncTimestamp].self, from: Data(#"["soon"]"#.utf8)) }
    }
}
