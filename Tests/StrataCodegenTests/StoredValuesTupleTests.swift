import Testing
@testable import StrataCodegen

/// The tuple a generated class keeps its stored values in: one member and one initial value a
/// line, in the same order, names escaped, and always two elements at least.
@Suite("Stored values tuple")
struct StoredValuesTupleTests {
    @Test func eachValueIsAMemberAndAnInitialValueInOrder() {
        let tuple = EntityContext.storedValuesTuple([("name", "String", "\"\""), ("master", "Int64?", "nil"), ("self", "Bool", "true")])
        #expect(tuple.members == ["name: String,", "master: Int64?,", "`self`: Bool"])
        #expect(tuple.initials == ["\"\",", "nil,", "true"])
    }

    /// Swift has no one-element tuple with a label, so a lone value gets a `Void` beside it.
    @Test func aLoneValueGetsAVoidBesideIt() {
        let tuple = EntityContext.storedValuesTuple([("count", "Int32", "0")])
        #expect(tuple.members == ["count: Int32,", "Void"])
        #expect(tuple.initials == ["0,", "()"])
    }

    @Test func noValuesMakeNoTuple() {
        let tuple = EntityContext.storedValuesTuple([])
        #expect(tuple.members.isEmpty && tuple.initials.isEmpty)
    }
}
