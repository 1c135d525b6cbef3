import Foundation
import StrataTestSupport
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
    /// over a to-many relationship it counts per object (see `perObjectAggregatesOfToManyRelationships`).
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

    /// CoreStore's `Select("name", .count("friends"))`: per person, in one query, values computed
    /// over that person's related objects, keyed as CoreStore keys them or by an alias.
    @Test func perObjectAggregatesOfToManyRelationships() async throws {
        try await stack.perform { t in
            let people = try t.fetchAll(From<Person>().orderBy(.ascending(\.name)))
            let (ann, bob, cid, dee) = (people[0], people[1], people[2], people[3])
            t.create(Into<Person>()).name = "Eve"
            ann.friends = [bob, cid]  // friends is its own inverse: Bob and Cid count Ann too
            cid.friends.append(dee)
            for (nickname, master) in [("Rex", ann), ("Ace", ann), (nil, bob)] as [(String?, Person)] {
                let dog = t.create(Into<Dog>())
                dog.nickname = nickname
                dog.master = master
            }
        }
        let rows = try stack.queryAttributes(From<Person>().select(
            .attribute(\.name), .count(\.friends), .count(\.pets, as: "dogs"), .average(\Person.friends ~ \Person.age),
            .sum(\Person.friends ~ \Person.age), .maximum(\Person.pets ~ \Dog.nickname), .minimum(\Person.friends ~ \Person.name),
            .count(\Person.pets ~ \Dog.nickname)).orderBy(.ascending(\.name)))
        #expect(rows.map { $0["name"] as? String } == ["Ann", "Bob", "Cid", "Dee", "Eve"])
        #expect(rows.map { $0["count(friends)"] as? Int } == [2, 1, 2, 1, 0])
        #expect(rows.map { $0["dogs"] as? Int } == [2, 1, 0, 0, 0])
        #expect(rows.map { $0["average(friends.age)"] as? Double } == [35, 30, 40, 40, nil])
        #expect(rows.map { $0["sum(friends.age)"] as? Int16 } == [70, 30, 80, 40, 0], "a sum of no objects is 0")
        #expect(rows.map { $0["max(pets.nickname)"] as? String } == ["Rex", nil, nil, nil, nil], "no value: the key is left out")
        #expect(rows.map { $0["min(friends.name)"] as? String } == ["Bob", "Ann", "Ann", "Cid", nil])
        #expect(rows.map { $0["count(pets.nickname)"] as? Int } == [2, 0, 0, 0, 0])
        #expect(Set(rows[4].keys) == ["name", "count(friends)", "dogs", "sum(friends.age)", "count(pets.nickname)"])
        // Through a to-one relationship first: how many dogs each dog's master has.
        let masters = try stack.queryAttributes(From<Dog>().where(\.nickname != nil)
            .select(.attribute(\.nickname), .count(\Dog.master ~ \Person.pets)).orderBy(.ascending(\.nickname)))
        #expect(masters.map { $0["count(master.pets)"] as? Int } == [2, 2])
        #expect(try stack.queryValue(From<Person>().where(\.name == "Cid").select(Int.self, .count(\.friends))) == 2)
        // Conditions and orderings still apply to the objects themselves.
        let younger = try stack.queryAttributes(From<Person>().where(\.age < 50 && \.name != "Eve").select(.attribute(\.name), .count(\.friends))
            .orderBy(.descending(\.name)))
        #expect(younger.map { $0["name"] as? String } == ["Cid", "Bob", "Ann"])
        #expect(younger.map { $0["count(friends)"] as? Int } == [2, 1, 2])
    }

    /// The SQL a per-object term becomes: a correlated subquery over the relationship's objects
    /// (their foreign key, or the link table of a many-to-many one).
    @Test func perObjectAggregatesBecomeCorrelatedSubqueries() throws {
        let query = From<Person>().select(.attribute(\.name), .count(\.pets), .average(\Person.friends ~ \Person.age))
        let sql = try stack.main.context.querySQL(query).sql
        #expect(sql.arguments.isEmpty)
        switch TestBackend.current {
        case .sqlite:
            #expect(sql.text == #"SELECT t."name", (SELECT count(*) FROM "Animal" AS ts1 WHERE (ts1."master" = t."strata_id") AND (ts1."strata_entity" IN (3))), "#
                    + #"(SELECT avg(ts2."age") FROM "Person" AS ts2 JOIN "strata_link_Person_6_friends" AS ts2l ON ts2l.target = ts2."strata_id" "#
                    + #"WHERE (ts2l.owner = t."strata_id")) FROM "Person" AS t"#)
        case .postgresql:
            #expect(sql.text == #"SELECT t."name", (SELECT count(*) FROM "Animal" AS ts1 WHERE (ts1."master" = t."strata_id") AND (ts1."strata_entity" IN (3))), "#
                    + #"(SELECT CAST(avg(ts2."age") AS double precision) FROM "Person" AS ts2 JOIN "strata_link_Person_6_friends" AS ts2l "#
                    + #"ON ts2l.target = ts2."strata_id" WHERE (ts2l.owner = t."strata_id")) FROM "Person" AS t"#)
        }
    }

    /// Per-object terms have no meaning grouped, nor beside an aggregate over the whole fetch.
    @Test func perObjectTermsRefuseGroupingAndWholeFetchAggregates() throws {
        #expect(throws: StrataError.invalidQuery("'count(friends)' is computed for each object, so the query cannot be grouped; "
                                                 + "group a query of the related entity by its relationship instead")) {
            try stack.queryAttributes(From<Person>().select(.attribute(\.age), .count(\.friends)).groupBy(\.age))
        }
        #expect(throws: StrataError.invalidQuery("'n' is computed for each object and 'count(age)' over all of them; select them in separate queries")) {
            try stack.queryAttributes(From<Person>().select(.count(\.age), .count(\.friends, as: "n")))
        }
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
