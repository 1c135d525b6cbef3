import Foundation
import Strata
import StrataTestSupport
import Testing

/// The `Hostile` model: keyword names, SQL keywords as tables and columns, and defaults full of
/// quotes, backslashes and `\(` generate code that compiles and keeps every value exactly.
@Suite("Hostile names end to end")
@MainActor
struct HostileTests {
    @Test func keywordsQuotesAndInterpolationRoundTrip() async throws {
        let stack = DataStack(Hostile.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        try await stack.perform { transaction in
            let thing = transaction.create(Into<`class`>())
            let order = transaction.create(Into<Table>())
            order.static = 3
            thing.for = [order]
            let other = transaction.create(Into<`class`>())
            other.default = "x\\(y)\"z"
            other.in = "'; DELETE FROM \"class\"; --"
        }
        let things = try stack.fetchAll(From<`class`>().orderBy(.ascending(\.default)))
        #expect(things.count == 2)
        let thing = try #require(things.first { $0.for.count == 1 })
        #expect(thing.default == "quote \" back\\slash \\(interp) \"\"\" end")
        #expect(thing.`self` == 7)
        #expect(thing.🐶 == "woof\nbark\t🐾")
        #expect(thing.`init` == true)
        #expect(thing.for.first?.static == 3)
        #expect(thing.for.first?.case === thing)
        let other = try #require(things.first { $0.for.isEmpty })
        #expect(other.in == "'; DELETE FROM \"class\"; --")
        #expect(try stack.fetchCount(From<`class`>().where(\.default == "x\\(y)\"z")) == 1)
        #expect(try stack.fetchCount(From<Table>().where(\.case?.🐶 == "woof\nbark\t🐾")) == 1)
    }
}
