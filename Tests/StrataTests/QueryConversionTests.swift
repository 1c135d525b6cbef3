import Foundation
import Testing
@testable import Strata

/// `queryValue` converts as CoreStore's queries do, and terms have CoreStore's default keys.
@MainActor
@Suite("Query conversions")
struct QueryConversionTests {
    func stack() async throws -> DataStack {
        let stack = try makeStack()
        try await addPeople(["Ann", "Bob", "Cy"], to: stack)  // ages 10, 20, 30
        try await stack.perform { transaction in
            let people = try transaction.fetchAll(From<Person>().orderBy(.ascending(\.name)))
            people[0].nickname = "Annie"
            people[2].nickname = "Cyd"
        }
        return stack
    }

    @Test func anInt16AttributeReadsAsAnyNumberOrBoolButNotText() async throws {
        let stack = try await stack()
        let maximum = From<Person>()
        #expect(try stack.queryValue(maximum.select(Int8.self, .maximum(\.age))) == 30)
        #expect(try stack.queryValue(maximum.select(Int.self, .maximum(\.age))) == 30)
        #expect(try stack.queryValue(maximum.select(Int64.self, .maximum(\.age))) == 30)
        #expect(try stack.queryValue(maximum.select(Double.self, .maximum(\.age))) == 30)
        // CoreStore casts the NSNumber to a string, which fails: nil.
        #expect(try stack.queryValue(maximum.select(String.self, .maximum(\.age))) == nil)
        #expect(try stack.queryValue(maximum.select(Bool.self, .maximum(\.age))) == true)
    }

    @Test func countsAndAveragesConvertToNumbers() async throws {
        let stack = try await stack()
        #expect(try stack.queryValue(From<Person>().select(Bool.self, .count(\.age))) == true)
        #expect(try stack.queryValue(From<Person>().where(\.age > 100).select(Bool.self, .count(\.age))) == false)
        #expect(try stack.queryValue(From<Person>().select(Int32.self, .count(\.age))) == 3)
        #expect(try stack.queryValue(From<Person>().select(Double.self, .count(\.age))) == 3)
        #expect(try stack.queryValue(From<Person>().select(Int.self, .average(\.age))) == 20)
        #expect(try stack.queryValue(From<Person>().where(\.age < 30).select(Int.self, .average(\.age))) == 15)
        try await stack.perform { transaction in
            for person in try transaction.fetchAll(From<Person>().where(\.age < 30)) { person.visits = Int(person.age) / 10 }
        }
        // An integer type drops the fraction, as CoreStore's NSNumber conversion does.
        #expect(try stack.queryValue(From<Person>().where(\.age < 30).select(Int.self, .average(\.visits))) == 1)
        #expect(try stack.queryValue(From<Person>().where(\.age < 30).select(Double.self, .average(\.visits))) == 1.5)
        #expect(try stack.queryValue(From<Person>().select(Int8.self, .sum(\.visits))) == 3)
    }

    @Test func aValueThatDoesNotFitIsNil() async throws {
        let stack = try await stack()
        try await stack.perform { transaction in try transaction.fetchOne(From<Person>())?.visits = 300 }
        #expect(try stack.queryValue(From<Person>().select(Int8.self, .maximum(\.visits))) == nil)
        #expect(try stack.queryValue(From<Person>().select(Int16.self, .maximum(\.visits))) == 300)
        #expect(try stack.queryValue(From<Person>().select(Date.self, .maximum(\.name))) == nil)
    }

    @Test func aggregatesOfOptionalAttributesLeaveNilsOut() async throws {
        let stack = try await stack()
        #expect(try stack.queryValue(From<Person>().select(String.self, .maximum(\.nickname))) == "Cyd")
        #expect(try stack.queryValue(From<Person>().select(String.self, .minimum(\.nickname))) == "Annie")
        #expect(try stack.queryValue(From<Person>().select(Int.self, .count(\.nickname))) == 2)
    }

    @Test func groupingThroughAToOneRelationship() async throws {
        let stack = try await stack()
        try await stack.perform { transaction in
            let people = try transaction.fetchAll(From<Person>().orderBy(.ascending(\.name)))
            for (index, master) in [people[0], people[0], people[1]].enumerated() {
                let dog = transaction.create(Into<Dog>())
                dog.species = "dog \(index)"
                dog.master = master
            }
        }
        let rows = try stack.queryAttributes(From<Dog>().select(.attribute(\Dog.master?.name), .count(\.species, as: "dogs"))
            .groupBy(\Dog.master?.name).orderBy(.ascending(\Dog.master?.name)))
        #expect(rows.map { $0["master.name"] as? String } == ["Ann", "Bob"])
        #expect(rows.map { $0["dogs"] as? Int } == [2, 1])
    }

    @Test func defaultKeysAreCoreStores() {
        #expect(SelectTerm<Person>.maximum(\.age).key == "max(age)")
        #expect(SelectTerm<Person>.minimum(\.age).key == "min(age)")
        #expect(SelectTerm<Person>.average(\.age).key == "average(age)")
        #expect(SelectTerm<Person>.count(\.age).key == "count(age)")
        #expect(SelectTerm<Person>.sum(\.age).key == "sum(age)")
        #expect(SelectTerm<Person>.objectID().key == "objectID")
        #expect(SelectTerm<Person>.attribute(\.age).key == "age")
    }
}
