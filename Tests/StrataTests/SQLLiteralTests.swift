import Testing
@testable import Strata

/// Values SQL text cannot carry exactly are left to bound parameters.
@Suite("SQL literals")
struct SQLLiteralTests {
    @Test(arguments: [
        (SQLValue.real(-0.0), String?.none), (.real(.nan), nil), (.real(.infinity), nil), (.text("a\0b"), nil),
        (.real(0), "0.0"), (.real(.leastNonzeroMagnitude), "5e-324"), (.real(-1.5), "-1.5"), (.integer(.min), "-9223372036854775808"),
        (.text("it's"), "'it''s'"), (.blob([0, 255]), "X'00FF'"), (.null, "NULL"),
    ])
    func literals(value: SQLValue, literal: String?) {
        #expect(SQLLiteral.literal(value) == literal)
    }
}
