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
}
