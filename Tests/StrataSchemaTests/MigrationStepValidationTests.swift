import Testing
@testable import StrataSchema

/// A chain step the runtime cannot infer is a model error unless the entity's step is custom.
@Suite("Model files: steps the runtime cannot infer")
struct MigrationStepValidationTests {
    private func messages(v2: String) throws -> [String] {
        try ModelFixture([
            "model.yml": "model: Farm\nmigrationChain: [V1, V2]\n",
            "V1.yml": "version: V1\nentities:\n  Cow:\n    attributes:\n      weight: Double\n      name: {type: String, optional: true}\n",
            "V2.yml": v2,
        ]).messages()
    }

    @Test func aLossyTypeChangeNeedsACustomStep() throws {
        let v2 = "version: V2\nentities:\n  Cow:\n    attributes:\n      weight: Int32\n      name: {type: String, optional: true}\n"
        #expect(try messages(v2: v2) == [
            "V2.yml:1:10: error: V1 → V2 cannot be inferred: Cow.weight: type Double → Int32 (existing values could lose information); "
                + "mark Cow 'transform: custom' in the migration block from V1 and implement its step",
        ])
        #expect(try messages(v2: v2 + "migration:\n  from: V1\n  entities:\n    Cow: {transform: custom}\n") == [])
    }

    @Test func aNilBecomingRequiredNeedsADefault() throws {
        let v2 = "version: V2\nentities:\n  Cow:\n    attributes:\n      weight: Double\n      name: String\n"
        #expect(try messages(v2: v2) == [
            "V2.yml:1:10: error: V1 → V2 cannot be inferred: Cow.name: optional true → false (existing nil values need a value: give it a default); "
                + "mark Cow 'transform: custom' in the migration block from V1 and implement its step",
        ])
        #expect(try messages(v2: v2.replacingOccurrences(of: "name: String", with: "name: {type: String, default: \"?\"}")) == [])
    }

    @Test func losslessChangesAreInferred() throws {
        for type in ["Double", "String"] {
            let v1 = "version: V1\nentities:\n  Cow:\n    attributes:\n      count: Int32\n"
            let fixture = try ModelFixture([
                "model.yml": "model: Farm\nmigrationChain: [V1, V2]\n", "V1.yml": v1,
                "V2.yml": "version: V2\nentities:\n  Cow:\n    attributes:\n      count: \(type)\n",
            ])
            #expect(fixture.messages() == [], "Int32 → \(type)")
        }
    }
}
