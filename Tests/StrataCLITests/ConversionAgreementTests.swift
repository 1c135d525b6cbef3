import Testing
@testable import Strata
@testable import StrataSchema

/// `strata verify` and the runtime must agree on which type changes an inferred step can make:
/// the schema library and the runtime each keep the rule (neither imports the other).
@Suite("Type changes: verify and the runtime agree")
struct ConversionAgreementTests {
    @Test func everyPairOfTypesIsJudgedAlike() {
        for old in StrataSchema.AttributeType.allCases {
            for new in StrataSchema.AttributeType.allCases where old != .codable && new != .codable {
                guard let runtimeOld = Strata.AttributeType(rawValue: old.rawValue), let runtimeNew = Strata.AttributeType(rawValue: new.rawValue) else {
                    Issue.record("the runtime has no type \(old.rawValue) or \(new.rawValue)")
                    continue
                }
                #expect(AttributeDiff.isLossless(old, new) == (AttributeConversion(from: runtimeOld, to: runtimeNew) != nil), "\(old) → \(new)")
            }
        }
    }
}
