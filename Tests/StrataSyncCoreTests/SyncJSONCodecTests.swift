import Foundation
import StrataSyncCore
import StrataTestSupport
import Testing

/// The hand-written JSON of pull pages and pushes says what their `Codable` forms say: random
/// messages (hostile text, extreme numbers, every part of a state) read back equal through both
/// paths, and every malformed page is refused with a message naming where.
@Suite("Sync JSON codec")
struct SyncJSONCodecTests {
    static let texts = ["", "plain", "quote \" and \\ backslash", "new\nline\ttab\r", "\u{0}\u{1}\u{1F}", "é ü ß", "🐕‍🦺 emoji", "</script>", "\u{7F}"]
    static let reals: [Double] = [0, -0.0, 1, -1.5, .pi, .leastNonzeroMagnitude, .leastNormalMagnitude, 1.7976931348623157e308, 1e16, 123456789.125, .nan, .infinity, -.infinity]
    static let integers: [Int64] = [0, -1, 1, .max, .min, 9_007_199_254_740_993]

    static func randomValue(using random: inout SeededGenerator) -> SyncValue {
        switch Int.random(in: 0..<5, using: &random) {
        case 0: .null
        case 1: .integer(integers.randomElement(using: &random)!)
        case 2: .real(reals.randomElement(using: &random)!)
        case 3: .text(texts.randomElement(using: &random)!)
        default: .blob((0..<Int.random(in: 0...6, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        }
    }

    static func randomChange(using random: inout SeededGenerator) -> SyncChange {
        var state = ConvergenceTests.randomState(using: &random)
        let node = texts.randomElement(using: &random)! + "-node"
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            let stamp = SyncTimestamp(milliseconds: Int64.random(in: -5...Int64.max, using: &random), counter: .random(in: 0...UInt32.max, using: &random), node: node)
            state.set(texts.randomElement(using: &random)!, to: randomValue(using: &random), at: stamp)
        }
        return SyncChange(entity: texts.randomElement(using: &random)!, id: GlobalID.make(milliseconds: 1_733_380_000_000, using: &random), state: state)
    }

    static func randomPage(using random: inout SeededGenerator) -> PullResponse {
        let entries = (0..<Int.random(in: 0...8, using: &random)).map { index in
            PullResponse.Entry(sequence: Int64(index + 1), change: randomChange(using: &random))
        }
        return PullResponse(entries: entries, checkpoint: Int64(entries.count), remaining: .random(in: 0...Int64.max, using: &random),
                            clock: SyncTimestamp(milliseconds: 7, counter: 1, node: "server"), epoch: texts.randomElement(using: &random)!,
                            account: texts.randomElement(using: &random)!)
    }

    @Test(arguments: Array(UInt64(1)...60))
    func pagesReadBackEqualThroughBothPaths(seed: UInt64) throws {
        var random = SeededGenerator(state: seed)
        let page = Self.randomPage(using: &random)
        #expect(try PullResponse(jsonBytes: page.jsonBytes()) == page, "seed \(seed): written and read by hand")
        #expect(try JSONDecoder().decode(PullResponse.self, from: Data(page.jsonBytes())) == page, "seed \(seed): written by hand, read by JSONDecoder")
        #expect(try PullResponse(jsonBytes: Array(JSONEncoder().encode(page))) == page, "seed \(seed): written by JSONEncoder, read by hand")
    }

    @Test(arguments: Array(UInt64(1)...30))
    func pushesWrittenByHandReadBackEqual(seed: UInt64) throws {
        var random = SeededGenerator(state: seed)
        let push = PushRequest(client: Self.texts.randomElement(using: &random)!, model: "M", version: "V1", batch: .random(in: 1...Int64.max, using: &random),
                               changes: (0..<Int.random(in: 0...8, using: &random)).map { _ in Self.randomChange(using: &random) })
        #expect(try JSONDecoder().decode(PushRequest.self, from: Data(push.jsonBytes())) == push, "seed \(seed)")
    }

    @Test func everyCutShortPageIsRefused() throws {
        var random = SeededGenerator(state: 99)
        let bytes = Self.randomPage(using: &random).jsonBytes()
        for length in 0..<bytes.count {
            #expect(throws: SyncProtocolError.self, "cut at \(length)") { try PullResponse(jsonBytes: Array(bytes[..<length])) }
        }
    }

    @Test func whiteSpaceAndUnknownFieldsAreAllowed() throws {
        let text = """
        { "format" : 1 , "extra" : [ true, false, null, {"deep": [1.5e3, -0, "x\\u00e9\\ud83d\\udc15"]} ],
          "entries" : [ { "sequence" : 3, "note": {}, "change" : { "entity" : "Dog", "id" : "0193a0b2-5c1e-7d3a-9f00-1b2c3d4e5f60",
            "state" : { "attributes" : { "name" : { "value" : {"real": -2.5E-3}, "stamp" : "5.0@a" } }, "future": 1 } } } ],
          "checkpoint" : 3, "remaining" : 0, "clock" : "9.1@server", "epoch" : "e", "account" : "alice" }
        """
        let page = try PullResponse(jsonBytes: Array(text.utf8))
        #expect(page.entries.first?.change.state.value(of: "name") == .real(-2.5e-3))
        #expect(page == (try JSONDecoder().decode(PullResponse.self, from: Data(text.utf8))))
    }

    static let refusals: [(String, String)] = [
        ("", "the JSON ends early; expected an object at byte 0"),
        ("[]", "the JSON is malformed at byte 0; expected an object"),
        ("{\"format\":1} x", "the JSON is malformed at byte 13; expected the end of the JSON"),
        ("{\"format\":1,}", "the JSON is malformed at byte 12; expected a field name"),
        ("{\"format\" 1}", "the JSON is malformed at byte 10; expected ':'"),
        ("{\"format\":1 \"entries\":[]}", "the JSON is malformed at byte 12; expected ',' or '}'"),
        ("{\"format\":01}", "the JSON is malformed at byte 10; expected a whole number"),
        ("{\"format\":1.5}", "the JSON is malformed at byte 10; expected a whole number"),
        ("{\"format\":9223372036854775808}", "the number at byte 10 is out of range"),
        ("{\"x\":1e999}", "the number at byte 5 is out of range"),
        ("{\"x\":-}", "the JSON is malformed at byte 5; expected a number"),
        ("{\"x\":1.}", "the JSON is malformed at byte 7; expected a digit after '.'"),
        ("{\"x\":tru}", "the JSON is malformed at byte 5; expected a value"),
        ("{\"x\":\"a\u{1}\"}", "the JSON is malformed at byte 7; expected no control character in a string"),
        ("{\"x\":\"\\q\"}", "the JSON is malformed at byte 7; expected an escape (\\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\u)"),
        ("{\"x\":\"\\u12\"}", "the JSON is malformed at byte 10; expected four hex digits"),
        ("{\"x\":\"\\ud800\"}", "the JSON is malformed at byte 12; expected a low surrogate escape"),
        ("{\"x\":\"\\udc00\"}", "the JSON is malformed at byte 12; expected a Unicode scalar, not a lone surrogate"),
        ("{\"x\":\"abc", "the JSON ends early; expected the string's closing '\"' at byte 9"),
        ("{\"format\":1}", "the field 'entries' is missing in a pull's answer"),
        ("{\"format\":2,\"entries\":[],\"checkpoint\":0,\"remaining\":0,\"clock\":\"1.0@s\",\"epoch\":\"e\",\"account\":\"a\"}",
         "this client speaks sync format 1, and the server sent format 2"),
        ("{\"format\":1,\"entries\":[{\"sequence\":1}],\"checkpoint\":0,\"remaining\":0,\"clock\":\"1.0@s\",\"epoch\":\"e\",\"account\":\"a\"}",
         "the field 'change' is missing in a pull's entry"),
        ("{\"clock\":\"yesterday\"}", "'yesterday' at byte 9 is not a timestamp (milliseconds.counter@node)"),
        ("{\"entries\":[{\"change\":{\"id\":\"dog-1\"}}]}", "'dog-1' at byte 28 is not a global ID (UUID text)"),
        ("{\"entries\":[{\"change\":{\"state\":{\"attributes\":{\"a\":{\"value\":{\"real\":\"big\"}}}}}}]}", "'big' at byte 67 is not nan, inf or -inf"),
        ("{\"entries\":[{\"change\":{\"state\":{\"attributes\":{\"a\":{\"value\":{\"base64\":\"%%\"}}}}}}]}", "the string at byte 69 is not base64"),
        ("{\"entries\":[{\"change\":{\"state\":{\"attributes\":{\"a\":{\"value\":{}}}}}}]}", "the value at byte 59 holds neither 'real' nor 'base64'"),
        ("{\"entries\":[{\"change\":{\"state\":{\"attributes\":{\"a\":{\"value\":1}}}}}]}", "the field 'stamp' is missing in an attribute's write"),
        ("{\"entries\":[{\"change\":{\"state\":{\"counters\":{\"c\":{\"contributions\":{\"a\":{\"up\":1}}}}}}}]}", "the field 'down' is missing in a counter's totals"),
        ("{\"entries\":[{\"change\":{\"state\":{\"orders\":{\"o\":{\"stamp\":\"1.0@a\"}}}}}]}", "the field 'members' is missing in an order"),
        ("{\"entries\":[{\"change\":{\"entity\":\"Dog\",\"state\":{}}}]}", "the field 'id' is missing in a change"),
        (String(repeating: "[", count: 70), "the JSON is malformed at byte 0; expected an object"),
        ("{\"x\":" + String(repeating: "[", count: 70), "the JSON nests deeper than 64 levels at byte 68"),
    ]

    @Test(arguments: refusals)
    func malformedPagesAreRefusedSayingWhere(json: String, message: String) {
        #expect(throws: SyncProtocolError(message)) { try PullResponse(jsonBytes: Array(json.utf8)) }
    }

    @Test func textThatIsNotUTF8IsRefused() {
        let bytes = Array("{\"epoch\":\"".utf8) + [0xC3, 0x28] + Array("\"}".utf8)
        #expect(throws: SyncProtocolError("the JSON's string at byte 9 is not valid UTF-8")) { try PullResponse(jsonBytes: bytes) }
    }
}
