import Foundation
import Testing
@testable import Strata

/// Clauses are values, as CoreStore's are: equal when built alike, hashable, readable.
@Suite("Clauses as values")
struct ClauseValueTests {
    @Test func clausesBuiltAlikeAreEqualAndHashAlike() {
        func chain() -> FetchChainBuilder<Person> {
            From<Person>().where(\.age > 30 && \.nickname == nil).orderBy(.ascending(\.name), .descending(\.age)).tweak { $0.limit = 5 }
        }
        #expect(chain() == chain())
        #expect(chain().hashValue == chain().hashValue)
        #expect(chain() != chain().tweak { $0.limit = 6 })
        #expect(chain() != From<Person>().where(\.age > 31 && \.nickname == nil).orderBy(.ascending(\.name), .descending(\.age)).tweak { $0.limit = 5 })
        #expect(From<Person>() == From<Person>() && From<Person>("A") != From<Person>("B"))
        #expect(Into<Person>("A") == Into<Person>("A"))
        #expect(OrderBy<Person>(.ascending(\.name)) != OrderBy<Person>(.descending(\.name)))
        let cache: [FetchChainBuilder<Person>: Int] = [chain(): 1]
        #expect(cache[chain()] == 1)
        #expect(Select<Person, Int>(.count(\.age)) == Select<Person, Int>(.count(\.age)))
        #expect(Select<Person, Int>(.count(\.age)) != Select<Person, Int>(.count(\.age, as: "n")))
        #expect(SelectTerm<Person>.maximum(\.age) != SelectTerm<Person>.minimum(\.age))
        #expect(From<Person>().select(.attribute(\.age)).groupBy(\.age) == From<Person>().select(.attribute(\.age)).groupBy(\.age))
    }

    @Test func clausesDescribeThemselves() {
        #expect(From<Person>().description == "From<Person>")
        #expect(Into<Person>("Cache").description == #"Into<Person>("Cache")"#)
        #expect((\Person.age > 30 && (\Person.name == "A\"n" || \Person.nickname == nil)).description
            == #"Where<Person>(age > 30 && (name == "A\"n" || nickname == nil))"#)
        #expect((!(\Person.age ~= [1, 2])).description == "Where<Person>(!(age in [1, 2]))")
        #expect(Where<Person>.contains(\.name, "an", caseInsensitive: true).description == #"Where<Person>(name contains[c] "an")"#)
        #expect(OrderBy<Person>(.ascending(\.name), .descending(\.age)).description == "OrderBy<Person>(name ascending, age descending)")
        #expect(Tweak { $0.limit = 10; $0.offset = 2 }.description == "Tweak(limit: 10, offset: 2)")
        #expect(From<Person>().where(\.age > 30).orderBy(.ascending(\.name)).tweak { $0.limit = 5 }.description
            == "From<Person>.where(age > 30).orderBy(name ascending).tweak(limit: 5)")
        #expect(From<Person>().select(.attribute(\.age), .count(\.age, as: "n")).groupBy(\.age).description
            == #"From<Person>.select(age, count(age) as "n").groupBy(age)"#)
        #expect(GroupBy<Person>(\.age, \.name).description == "GroupBy<Person>(age, name)")
        #expect(Select<Person, Int>(.count(\.age)).description == "Select<Person>(count(age))")
    }

    @Test func termsAndGroupsAreReadable() {
        let query = From<Person>().select(Select<Person, QueryAttributes>(.attribute(\.age), .average(\.visits, as: "v"))).groupBy(GroupBy(\.age, \.isActive))
        #expect(query.selectTerms.map(\.key) == ["age", "v"])
        #expect(query.selectTerms.map(\.keyPath) == ["age", "visits"])
        #expect(query.groupByKeyPaths == ["age", "isActive"])
        #expect(GroupBy<Person>(\.age, \.name).keyPaths == ["age", "name"])
        #expect(SelectTerm<Person>.objectID().keyPath == nil)
    }

    @Test func optionalConditionsCombine() {
        let adult = \Person.age >= 18
        let none: Where<Person>? = nil
        let named: Where<Person>? = \Person.name != ""
        #expect((adult &&? none) == adult)
        #expect((none &&? adult) == adult)
        #expect((adult &&? named) == (adult && \Person.name != ""))
        #expect((adult ||? none) == adult)
        #expect((named ||? adult) == (\Person.name != "" || adult))
        #expect(Where<Person>() == Where<Person>(true))
        #expect(Where<Person>().description == "Where<Person>(true)")
    }

    @Test func groupingBySeveralAttributesOfDifferentTypes() async throws {
        let stack = try makeStack()
        try await addPeople(["Ann", "Bob", "Cy", "Dee"], to: stack)
        try await stack.perform { transaction in
            for person in try transaction.fetchAll(From<Person>()) { person.isActive = person.name.count == 3 }
        }
        let rows = try await MainActor.run {
            try stack.queryAttributes(From<Person>().select(.attribute(\.isActive), .count(\.name, as: "n")).groupBy(\.isActive, \.age).orderBy(.ascending(\.age)))
        }
        #expect(rows.count == 4)
        #expect(rows.map { $0["n"] as? Int } == [1, 1, 1, 1])
        #expect(rows.map { $0["isActive"] as? Bool } == [true, true, false, true])
    }
}
