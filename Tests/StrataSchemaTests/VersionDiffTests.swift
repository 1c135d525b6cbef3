import Testing
@testable import StrataSchema

@Suite("Version diff: the migration plan between two versions")
struct VersionDiffTests {
    static let v1 = """
    version: V1
    entities:
      Person:
        attributes:
          age: Int16
          name: {type: String, optional: true}
          nickname: {type: String, optional: true}
          code: String
          rank: Int32
        relationships:
          pets: {destination: Dog, inverse: master, toMany: unordered}
      Dog:
        relationships:
          master: {destination: Person, inverse: pets}
      Cat: {}
      Bird: {}
    """

    static let v2 = """
    version: V2
    entities:
      Human:
        attributes:
          years: Int64
          name: {type: String, default: "?", indexed: true}
          label: {type: String, optional: true, storageKey: nickname}
          code: {type: Double, unique: true}
          rank: {type: String, optional: true}
          email: String
          phone: {type: String, optional: true}
        relationships:
          pets: {destination: Dog, inverse: master, toMany: ordered, deleteRule: cascade}
        uniqueness: [[name, email]]
      Dog:
        relationships:
          master: {destination: Human, inverse: pets}
      Fish: {}
      Bird: {abstract: true}
    migration:
      from: V1
      entities:
        Human:
          renamedFrom: Person
          attributes:
            years: {renamedFrom: age}
        Dog: {transform: custom}
        Cat: {delete: true}
    """

    private func plan(_ v2: String = Self.v2) throws -> MigrationPlan {
        let fixture = try ModelFixture(["model.yml": "model: Shop\nmigrationChain: [V1, V2]\n", "V1.yml": Self.v1, "V2.yml": v2])
        let loaded = fixture.load()
        let model = try #require(loaded.model)
        return VersionDiff.plan(model: model, from: try #require(model.version(named: "V1")), to: try #require(model.version(named: "V2")))
    }

    @Test func everyKindOfChangeIsWeighed() throws {
        #expect(try plan().text.hasPrefix("Shop V1 → V2: heavyweight, 20 steps (4 heavyweight)\n  ~ Bird: abstract false → true"))
        #expect(try plan().steps.map(\.description) == [
            "~ Bird: abstract false → true [heavyweight: existing rows of 'Bird' need a concrete entity]",
            "* entity Dog: custom transform [heavyweight: the app supplies this step]",
            "+ entity Fish [lightweight]",
            "→ entity Person renamed to Human [lightweight]",
            "~ Human.code: type String → Double [heavyweight: existing values could lose information]",
            "~ Human.code: unique false → true [lightweight: fails if existing rows repeat a value]",
            "→ attribute Human.label: name nickname → label [lightweight: Swift name only]",
            "~ Human.name: optional true → false [lightweight: nil values take the default]",
            "~ Human.name: default none → \"?\" [lightweight: applies to new objects]",
            "~ Human.name: indexed false → true [lightweight]",
            "~ Human.rank: type Int32 → String [lightweight: every old value converts without loss]",
            "~ Human.rank: optional false → true [lightweight]",
            "→ attribute Human.years: name age → years [lightweight: column renamed]",
            "~ Human.years: type Int16 → Int64 [lightweight: every old value converts without loss]",
            "+ attribute Human.email [heavyweight: existing rows need a value: make it optional or give it a default]",
            "+ attribute Human.phone [lightweight]",
            "~ Human.pets: kind unordered → ordered [lightweight: every link is kept]",
            "~ Human.pets: deleteRule nullify → cascade [lightweight]",
            "+ uniqueness Human [email, name] [lightweight: fails if existing rows repeat a value]",
            "- entity Cat [lightweight: its rows are dropped]",
        ])
        #expect(try plan().weight == .heavyweight)
    }

    @Test func withoutHintsRenamesAreNeverGuessed() throws {
        let unhinted = Self.v2.components(separatedBy: "migration:")[0]
        let steps = try plan(unhinted).steps.map(\.description)
        #expect(steps.contains("+ entity Human [lightweight]"))
        #expect(steps.contains("- entity Person [lightweight: its rows are dropped]"))
        // Without the rename, Human is another entity, so Dog.master's links point elsewhere; with
        // it (above), Human is Person renamed and the links stay as they are.
        #expect(steps.contains("~ Dog.master: destination Person → Human [heavyweight: links must be remapped to the new destination]"))
        #expect(try plan(unhinted).text.hasSuffix("  (no migration block from V1 in V2: renames are not inferred, so renamed names show as removed and added)\n"))
    }

    @Test func identicalVersionsHaveAnEmptyLightweightPlan() throws {
        let same = Self.v1.replacingOccurrences(of: "version: V1", with: "version: V2")
        let plan = try plan(same)
        #expect(plan.steps.isEmpty)
        #expect(plan.weight == .lightweight)
        #expect(plan.text.hasPrefix("Shop V1 → V2: lightweight, 0 steps\n  no stored change\n"))
    }
}
