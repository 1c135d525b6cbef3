import Testing
@testable import StrataCodegen
import StrataSchema

/// Defaults become Swift literals that give exactly the written value, and compile without warnings.
@Suite("Default literals")
struct DefaultLiteralTests {
    @Test(arguments: [
        ("2001-01-01T00:00:00.1Z", "0.1"),
        ("1969-12-31T23:59:59.75Z", "-978307200.25"),
        ("2000-12-31T23:59:59.999Z", "-0.001"),
        ("2000-12-31T23:59:59Z", "-1"),
        ("2024-05-01T00:00:00Z", "736214400"),
    ])
    func datesAreSecondsSinceTheReferenceDateWrittenExactly(canonical: String, literal: String) {
        #expect(CanonicalDate.referenceSecondsLiteral(canonical) == literal)
        #expect(AttributeCode.literal(canonical, type: .date) == "Date(timeIntervalSinceReferenceDate: \(literal))")
    }

    @Test func aDateThatIsNotOneIsNil() {
        #expect(CanonicalDate.referenceSecondsLiteral("yesterday") == nil)
    }

    @Test(arguments: [
        ("5e-324", AttributeType.double, "Double(bitPattern: 0x1) /* 5e-324 */"),
        ("2.225073858507201e-308", .double, "Double(bitPattern: 0xFFFFFFFFFFFFF) /* 2.225073858507201e-308 */"),
        ("1e-45", .float, "Float(bitPattern: 0x1) /* 1e-45 */"),
        ("-0.0", .double, "-0.0"),
        ("1.5", .float, "1.5"),
        ("1.7976931348623157e+308", .double, "1.7976931348623157e+308"),
    ])
    func subnormalNumbersAreWrittenAsBitPatterns(canonical: String, type: AttributeType, literal: String) {
        #expect(AttributeCode.literal(canonical, type: type) == literal)
    }
}
