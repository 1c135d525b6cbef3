import Foundation
import Testing
@testable import Strata

extension Cat: ImportableObject {
    func didInsert(from source: [String: Any], in transaction: BaseDataTransaction) throws {
        if let value = try ImportValue.decode(Int32.self, source, "lives", entity: "Cat", attribute: "lives") { lives = value }
    }
}

@Suite("Import values")
struct ImportValueTests {
    /// A payload written by hand may still require a key: absent or null is an error naming the
    /// source and the key (generated payloads skip a source without its ID instead).
    @Test func aRequiredKeyOfAHandWrittenPayloadIsNamedWhenMissing() throws {
        #expect(try ImportPayloadReader(jsonObject: ["code": 7], index: 2, entity: "Bed").required(Int64.self, "code", attribute: "code") == 7)
        #expect(throws: StrataError.invalidImportSource(entity: "Bed", source: "[2]", key: "code", reason: "the key is missing, and 'Bed.code' needs a value")) {
            try ImportPayloadReader(jsonObject: [:], index: 2, entity: "Bed").required(Int64.self, "code", attribute: "code")
        }
        #expect(throws: StrataError.invalidImportSource(entity: "Bed", source: "[0]", key: "code", reason: "found null, and 'Bed.code' needs a value")) {
            try ImportPayloadReader(jsonObject: ["code": NSNull()], index: 0, entity: "Bed").required(Int64.self, "code", attribute: "code")
        }
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func keyPathsWalkNestedObjects() throws {
        let source = try json(#"{"a": {"b": {"c": 5}}, "n": null}"#)
        #expect(try ImportValue.decode(Int.self, source, "a.b.c", entity: "E", attribute: "x") == 5)
        #expect(try ImportValue.decode(Int.self, source, "a.x", entity: "E", attribute: "x") == nil)
        #expect(ImportValue.isNull(source, "n"))
        #expect(!ImportValue.isNull(source, "a"))
    }

    @Test func booleansAndNumbersAreToldApart() throws {
        let source = try json(#"{"t": true, "one": 1, "zero": 0, "half": 0.5, "big": 9007199254740993}"#)
        #expect(try ImportValue.decode(Bool.self, source, "t", entity: "E", attribute: "x") == true)
        #expect(try ImportValue.decode(Int64.self, source, "one", entity: "E", attribute: "x") == 1)
        #expect(try ImportValue.decode(Int16.self, source, "zero", entity: "E", attribute: "x") == 0)
        #expect(try ImportValue.decode(Double.self, source, "half", entity: "E", attribute: "x") == 0.5)
        #expect(throws: StrataError.importFailed(entity: "E", attribute: "x", key: "one", reason: "expected true or false, found 1")) {
            try ImportValue.decode(Bool.self, source, "one", entity: "E", attribute: "x")
        }
        #expect(throws: StrataError.importFailed(entity: "E", attribute: "x", key: "t", reason: "expected a number, found true")) {
            try ImportValue.decode(Double.self, source, "t", entity: "E", attribute: "x")
        }
    }

    @Test func textValuesConvert() throws {
        let source = try json(#"{"d": "2024-05-01", "dt": "2024-05-01T12:00:00.5Z", "u": "3F2504E0-4F89-11D3-9A0C-0305E82C3301", "bin": "AAEC", "dec": "0.10"}"#)
        #expect(try ImportValue.decode(Date.self, source, "d", entity: "E", attribute: "x") == Date(timeIntervalSince1970: 1_714_521_600))
        #expect(try ImportValue.decode(Date.self, source, "dt", entity: "E", attribute: "x") == Date(timeIntervalSince1970: 1_714_564_800.5))
        #expect(try ImportValue.decode(UUID.self, source, "u", entity: "E", attribute: "x") == UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301"))
        #expect(try ImportValue.decode(Data.self, source, "bin", entity: "E", attribute: "x") == Data([0, 1, 2]))
        #expect(try ImportValue.decode(Decimal.self, source, "dec", entity: "E", attribute: "x") == Decimal(string: "0.1"))
        #expect(throws: StrataError.importFailed(entity: "E", attribute: "x", key: "u", reason: "expected base64 text, found the text \"3F2504E0-4F89-11D3-9A0C-0305E82C3301\"")) {
            try ImportValue.decode(Data.self, source, "u", entity: "E", attribute: "x")
        }
    }

    @Test func idsNeedAUniqueDestination() async throws {
        let stack = try makeStack()
        await #expect(throws: StrataError.importFailed(entity: "Person", attribute: "cats", key: "cats",
                                                       reason: "found the ID 3, but 'Cat' has no uniqueID to find objects by")) {
            try await stack.perform { transaction in
                let related = try #require(try ImportValue.related(["cats": [3]], "cats", entity: "Person", relationship: "cats"))
                _ = try transaction.importRelated(Into<Cat>(), related)
            }
        }
        let lives = try await stack.perform { transaction in
            let related = try #require(try ImportValue.related(["cats": [["lives": 3], ["lives": 5]]], "cats", entity: "Person", relationship: "cats"))
            return try transaction.importRelated(Into<Cat>(), related).map(\.lives)
        }
        #expect(lives == [3, 5])
    }

    /// Text written as a JSON number converts under a JSON number's rules; anything else stays text.
    @Test(arguments: [
        ("3", Int64?(3), Double?(3)), ("-42", -42, -42), ("007", 7, 7), ("3.0", 3, 3), ("1e3", 1000, 1000), ("2.5E-1", nil, 0.25),
        ("3.5", nil, 3.5), ("9223372036854775807", Int64.max, 9.223372036854775808e18), ("9223372036854775808", nil, 9.223372036854775808e18),
        ("+3", nil, nil), (" 3", nil, nil), ("3 ", nil, nil), ("", nil, nil), ("-", nil, nil), ("1.", nil, nil), (".5", nil, nil),
        ("0x10", nil, nil), ("inf", nil, nil), ("nan", nil, nil), ("1e999", nil, nil), ("many", nil, nil),
    ])
    func numbersWrittenAsText(text: String, integer: Int64?, double: Double?) {
        #expect(Int64(importValue: text) == integer)
        #expect(Double(importValue: text) == double)
        #expect(Float(importValue: text) == double.map(Float.init))
    }

    @Test func wholeNumberTextMustFitTheType() {
        #expect(Int16(importValue: "32767") == 32_767)
        #expect(Int16(importValue: "32768") == nil)
        #expect(Int32(importValue: "-2147483648") == Int32.min)
        #expect(Float(importValue: "0.1") == Float(0.1))
    }

    /// JSON numbers beyond what a `Double` holds exactly are read as the integers they are: an
    /// unsigned one beyond `Int64` does not wrap around to a negative value.
    @Test func largeNumbersAreReadExactlyOrRefused() throws {
        let source = try json(#"{"max": 9223372036854775807, "min": -9223372036854775808, "over": 18446744073709551615, "huge": 1e300, "big": 9007199254740993}"#)
        #expect(Int64(importValue: source["max"]!) == Int64.max)
        #expect(Int64(importValue: source["min"]!) == Int64.min)
        #expect(Int64(importValue: source["big"]!) == 9_007_199_254_740_993)
        #expect(Int64(importValue: source["over"]!) == nil)
        #expect(Int64(importValue: source["huge"]!) == nil)
        #expect(Int32(importValue: source["max"]!) == nil)
        #expect(Float(importValue: source["huge"]!) == nil)
        #expect(Double(importValue: source["huge"]!) == 1e300)
    }

    /// Swift values in a dictionary built by hand convert as the same values from `JSONSerialization` do.
    @Test func swiftValuesConvertAsDecodedOnesDo() throws {
        let decoded = try json(#"{"i": 3, "d": 2.5, "w": 4.0, "t": true, "s": "x", "when": 86400.5}"#)
        let built: [String: Any] = ["i": 3, "d": 2.5, "w": 4.0, "t": true, "s": "x", "when": 86_400.5]
        for source in [decoded, built] {
            #expect(Int64(importValue: source["i"]!) == 3)
            #expect(Int16(importValue: source["w"]!) == 4)
            #expect(Int64(importValue: source["d"]!) == nil)
            #expect(Int64(importValue: source["t"]!) == nil)
            #expect(Double(importValue: source["i"]!) == 3)
            #expect(Double(importValue: source["t"]!) == nil)
            #expect(Float(importValue: source["d"]!) == 2.5)
            #expect(Bool(importValue: source["t"]!) == true)
            #expect(Bool(importValue: source["i"]!) == nil)
            #expect(String(importValue: source["s"]!) == "x")
            #expect(String(importValue: source["i"]!) == nil)
            #expect(Date(importValue: source["when"]!) == Date(timeIntervalSince1970: 86_400.5))
            #expect(Date(importValue: source["t"]!) == nil)
        }
    }

    /// Dates in the usual ISO 8601 forms are read without a formatter, to the value the formatter
    /// gives, over random dates, times, fractions and zones; forms outside them still reach it.
    @Test func usualDateFormsMatchTheFormatter() throws {
        var random = SplitMix(state: 0x5EED_DA7E)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        let dateOnly = ISO8601DateFormatter()
        dateOnly.formatOptions = [.withFullDate]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        for _ in 0..<2_000 {
            let year = Int.random(in: 1601...9999, using: &random), month = Int.random(in: 1...12, using: &random)
            let day = Int.random(in: 1...ImportDateText.daysIn(month: month, year: year), using: &random)
            let date = "\(year)-\(two(month))-\(two(day))"
            #expect(ImportDateText.usualForm(date) == dateOnly.date(from: date), "\(date)")
            let time = "\(two(Int.random(in: 0...23, using: &random))):\(two(Int.random(in: 0...59, using: &random))):\(two(Int.random(in: 0...59, using: &random)))"
            let fraction = ["", ".5", ".25", ".125", ".999", ".001"][Int.random(in: 0...5, using: &random)]
            let zone = Bool.random(using: &random) ? "Z"
                : (Bool.random(using: &random) ? "+" : "-") + "\(two(Int.random(in: 0...14, using: &random))):\(two([0, 30, 45][Int.random(in: 0...2, using: &random)]))"
            let text = date + "T" + time + fraction + zone
            let expected = fraction.isEmpty ? plain.date(from: text) : formatter.date(from: text)
            #expect(expected != nil, "\(text)")
            #expect(ImportDateText.usualForm(text) == expected, "\(text)")
            #expect(Date(importValue: text) == expected, "\(text)")
        }
        // Outside the usual forms: left to the formatter, which decides.
        for text in ["2024-02-30", "1500-01-01", "2024-05-01T12:00:00.123456Z", "2024-05-01T24:00:00Z", "2024-05-01 12:00:00Z", "20240501"] {
            #expect(ImportDateText.usualForm(text) == nil, "\(text)")
        }
        #expect(Date(importValue: "yesterday") == nil)
    }
}
