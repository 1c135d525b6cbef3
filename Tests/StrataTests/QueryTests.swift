import Foundation
import Testing
@testable import Strata

@Suite("Queries")
@MainActor
struct QueryTests {
    let stack: DataStack

    init() async throws {
        stack = try makeStack()
        try await stack.perform { transaction in
            for (name, age, balance) in [("Ann", 30, "1.5"), ("Bob", 30, "2.25"), ("Cid", 40, "10"), ("Dee", 50, "0.25")] {
                let person = transaction.create(Into<Person>())
                person.name = name
                person.age = Int16(age)
                person.balance = Decimal(string: balance)!
                person.score = Double(age) / 10
            }
        }
    }

    @Test func queryValueReturnsTypedValues() throws {
        #expect(try stack.queryValue(From<Person>().select(Int16.self, .maximum(\.age))) == 50)
        #expect(try stack.queryValue(From<Person>().select(Int16.self, .minimum(\.age))) == 30)
        #expect(try stack.queryValue(From<Person>().select(Int.self, .count(\.name))) == 4)
        #expect(try stack.queryValue(From<Person>().select(Double.self, .average(\.age))) == 37.5)
        #expect(try stack.queryValue(From<Person>().select(Double.self, .sum(\.score))) == 15)
        #expect(try stack.queryValue(From<Person>().where(\.name == "Cid").select(\.age)) == 40)
        #expect(try stack.queryValue(From<Person>().where(\.name == "Nobody").select(\.age)) == nil)
        #expect(try stack.queryValue(From<Person>().select(Decimal.self, .maximum(\.balance))) == 10)
    }

    @Test func queryAttributesGroupAndAlias() throws {
        let rows = try stack.queryAttributes(
            From<Person>().select(.attribute(\.age), .count(\.age, as: "n"), .average(\.score)).groupBy(\.age).orderBy(.ascending(\.age)))
        #expect(rows.count == 3)
        #expect(rows.map { $0["age"] as? Int16 } == [30, 40, 50])
        #expect(rows.map { $0["n"] as? Int } == [2, 1, 1])
        #expect(rows.map { $0["average(score)"] as? Double } == [3, 4, 5])
    }

    /// `count` takes attributes (NULLs left out) and to-one relationships (unset ones left out);
    /// over a to-many relationship it does not compile (`\.pets.count` counts in conditions).
    @Test func countCountsValuesAndSetRelationships() async throws {
        try await stack.perform { t in
            let ann = try #require(try t.fetchOne(From<Person>().where(\.name == "Ann")))
            t.create(Into<Dog>()).master = ann
            t.create(Into<Dog>()).master = ann
            t.create(Into<Dog>())  // `create` is @discardableResult, as in CoreStore
            try #require(try t.fetchOne(From<Person>().where(\.name == "Bob"))).nickname = "B"
        }
        #expect(try stack.queryValue(From<Dog>().select(Int.self, .count(\.master))) == 2)
        #expect(try stack.queryValue(From<Person>().select(Int.self, .count(\.nickname))) == 1)
        #expect(try stack.queryValue(From<Person>().select(Int.self, .count(\.age))) == 4)
    }

    @Test func objectIDsCanBeSelected() throws {
        let rows = try stack.queryAttributes(From<Person>().where(\.name == "Bob").select(.objectID(), .attribute(\.name)))
        let id = try #require(rows.first?["objectID"] as? ObjectID<Person>)
        #expect(stack.fetchExisting(id)?.name == "Bob")
    }

    @Test func queriesInTransactionsAndReadContextsSeeTheirData() async throws {
        let inside = try await stack.perform { transaction in
            transaction.create(Into<Person>()).name = "Eve"
            return try transaction.queryValue(From<Person>().select(Int.self, .count(\.name)))
        }
        #expect(inside == 5)
        let read = try await stack.read { try $0.queryValue(From<Person>().select(Int.self, .count(\.name))) }
        #expect(read == 5)
    }

    @Test func emptyAndInvalidQueriesAreClearErrors() {
        #expect(throws: StrataError.invalidQuery("KeyPath<Person, Snapshot> does not name a stored property of 'Person'; "
            + "a path through more than two to-one relationships is written with ~ (\\.owner ~ \\.address ~ \\.city), "
            + "and a to-many relationship is tested with .any, .all, .none or its count")) {
            try stack.queryAttributes(From<Person>().select(.attribute(\.age)).groupBy(\.snapshot))
        }
    }
}
