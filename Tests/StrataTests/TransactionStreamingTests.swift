import Foundation
import StrataTestSupport
import Testing
@testable import Strata

/// `fetchEach` in a transaction whose closure changes the attribute the fetch is ordered by, and
/// writes the change while the fetch goes on (a fetch inside the closure writes pending changes
/// first). The rows could once be met again after each change, without end.
@Suite("Streaming in a transaction")
@MainActor
struct TransactionStreamingTests {
    @Test func eachObjectIsMetOnceWhenTheClosureChangesItsSortKey() async throws {
        let stack = try makeStack()
        try await stack.perform { t in
            for name in ["Ann", "Bob", "Cy"] { t.create(Into<Person>()).name = name }
        }
        let met = try await stack.perform { t -> [String] in
            var met: [String] = []
            try t.fetchEach(From<Person>().orderBy(.ascending(\.name))) { person in
                met.append(person.name)
                person.name += "!"
                // Writes the change now, on the connection the fetch reads from.
                _ = try t.fetchCount(From<Person>().where(.endsWith(\.name, "!")))
            }
            return met
        }
        #expect(met == ["Ann", "Bob", "Cy"])
        #expect(try stack.fetchAll(From<Person>().orderBy(.ascending(\.name))).map(\.name) == ["Ann!", "Bob!", "Cy!"])
    }

    /// Objects the closure deletes before the fetch reaches them are skipped; objects are the
    /// transaction's own, with its unsaved changes.
    @Test func objectsDeletedMeanwhileAreSkippedAndChangesAreSeen() async throws {
        let stack = try makeStack()
        try await stack.perform { t in
            for (name, age) in [("Ann", 30), ("Bob", 40), ("Cy", 50)] {
                let person = t.create(Into<Person>())
                person.name = name
                person.age = Int16(age)
            }
        }
        let met = try await stack.perform { t -> [String] in
            try #require(try t.fetchOne(From<Person>().where(\.name == "Cy"))).age = 51
            var met: [String] = []
            try t.fetchEach(From<Person>().orderBy(.ascending(\.name))) { person in
                met.append("\(person.name) \(person.age)")
                if person.name == "Ann", let bob = try t.fetchOne(From<Person>().where(\.name == "Bob")) { t.delete(bob) }
            }
            return met
        }
        #expect(met == ["Ann 30", "Cy 51"])
    }
}
