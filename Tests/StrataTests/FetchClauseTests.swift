import Foundation
import Testing
@testable import Strata

@Suite("Fetch clauses")
@MainActor
struct FetchClauseTests {
    let stack: DataStack

    init() async throws {
        stack = try makeStack()
        try await stack.perform { transaction in
            let rows: [(String, Int16, String?, String, Mood?)] = [
                ("Ann", 10, "annie", "1.50", .calm), ("Bob", 20, nil, "20", nil), ("Cid", 30, "C", "3", .playful),
                ("Dee", 40, "dee", "100.25", .calm), ("Émile", 50, "ÉM", "0.75", nil),
            ]
            for (name, age, nickname, balance, mood) in rows {
                let person = transaction.create(Into<Person>())
                person.name = name
                person.age = age
                person.nickname = nickname
                person.balance = Decimal(string: balance)!
                person.mood = mood
            }
        }
    }

    private func names(_ fetch: FetchChainBuilder<Person>) throws -> [String] {
        try stack.fetchAll(fetch.orderBy(.ascending(\.name))).map(\.name)
    }

    @Test func comparisons() throws {
        #expect(try names(From<Person>().where(\.age == 30)) == ["Cid"])
        #expect(try names(From<Person>().where(\.age != 30)) == ["Ann", "Bob", "Dee", "Émile"])
        #expect(try names(From<Person>().where(\.age < 30)) == ["Ann", "Bob"])
        #expect(try names(From<Person>().where(\.age <= 30)) == ["Ann", "Bob", "Cid"])
        #expect(try names(From<Person>().where(\.age > 30)) == ["Dee", "Émile"])
        #expect(try names(From<Person>().where(\.age >= 30)) == ["Cid", "Dee", "Émile"])
    }

    @Test func nilComparisonsAndOptionals() throws {
        #expect(try names(From<Person>().where(\.nickname == nil)) == ["Bob"])
        #expect(try names(From<Person>().where(\.nickname != nil)) == ["Ann", "Cid", "Dee", "Émile"])
        #expect(try names(From<Person>().where(\.nickname == "dee")) == ["Dee"])
        #expect(try names(From<Person>().where(\.mood == .calm)) == ["Ann", "Dee"])
    }

    @Test func inListsAndLogic() throws {
        #expect(try names(From<Person>().where(\.age ~= [10, 50, 70])) == ["Ann", "Émile"])
        #expect(try names(From<Person>().where(\.age ~= [Int16]())) == [])
        #expect(try names(From<Person>().where(\.age > 10 && \.age < 40)) == ["Bob", "Cid"])
        #expect(try names(From<Person>().where(\.age == 10 || \.name == "Dee")) == ["Ann", "Dee"])
        #expect(try names(From<Person>().where(!(\.age > 20))) == ["Ann", "Bob"])
        #expect(try names(From<Person>().where(Where(true))) == ["Ann", "Bob", "Cid", "Dee", "Émile"])
        #expect(try names(From<Person>().where(Where(false))) == [])
        #expect(try names(From<Person>().where(\.age > 10).where(\.age < 30)) == ["Bob"])
    }

    @Test func decimalsCompareAsNumbers() throws {
        #expect(try names(From<Person>().where(\.balance > Decimal(2))) == ["Bob", "Cid", "Dee"])
        let ordered = try stack.fetchAll(From<Person>().orderBy(.descending(\.balance))).map(\.name)
        #expect(ordered == ["Dee", "Bob", "Cid", "Ann", "Émile"])
    }

    @Test func textMatches() throws {
        #expect(try names(From<Person>().where(.contains(\.name, "e"))) == ["Dee", "Émile"])
        #expect(try names(From<Person>().where(.contains(\.name, "É"))) == ["Émile"])
        #expect(try names(From<Person>().where(.contains(\.name, "é", caseInsensitive: true))) == ["Émile"])
        #expect(try names(From<Person>().where(.beginsWith(\.name, "b", caseInsensitive: true))) == ["Bob"])
        #expect(try names(From<Person>().where(.beginsWith(\.name, "b"))) == [])
        #expect(try names(From<Person>().where(.endsWith(\.name, "ee"))) == ["Dee"])
        #expect(try names(From<Person>().where(.endsWith(\.name, ""))) == ["Ann", "Bob", "Cid", "Dee", "Émile"])
        #expect(try names(From<Person>().where(.like(\.name, "_o%"))) == ["Bob"])
        #expect(try names(From<Person>().where(.like(\.name, "%E", caseInsensitive: true))) == ["Dee", "Émile"])
        #expect(try names(From<Person>().where(.contains(\.nickname, "m", caseInsensitive: true))) == ["Émile"])
    }

    @Test func likeEscapesAndGlobCharacters() {
        #expect(TextMatchSQL.globPattern(fromLike: "a%b_c\\%d*e?[f") == "a*b?c%d[*]e[?][[]f")
    }

    @Test func rawSQLWithBoundArguments() throws {
        #expect(try names(From<Person>().where(sql: "length(\"name\") = ? AND \"age\" > ?", 3, 15)) == ["Bob", "Cid", "Dee"])
        let injection = "x' OR 1=1 --"
        #expect(try names(From<Person>().where(\.name == injection)) == [])
    }

    @Test func orderingLimitsAndOffsets() throws {
        #expect(try stack.fetchAll(From<Person>().orderBy(.descending(\.age)).tweak { $0.limit = 2 }).map(\.name) == ["Émile", "Dee"])
        #expect(try stack.fetchAll(From<Person>().orderBy(.ascending(\.age)).tweak { $0.limit = 2; $0.offset = 1 }).map(\.name) == ["Bob", "Cid"])
        var order = OrderBy<Person>(.ascending(\.isActive))
        order += OrderBy(.descending(\.name))
        #expect(try stack.fetchAll(From<Person>().orderBy(order)).map(\.name) == ["Émile", "Dee", "Cid", "Bob", "Ann"])
    }

    @Test func countsAndIDs() throws {
        #expect(try stack.fetchCount(From<Person>()) == 5)
        #expect(try stack.fetchCount(From<Person>().where(\.age > 25)) == 3)
        let ids = try stack.fetchObjectIDs(From<Person>().orderBy(.ascending(\.age)))
        #expect(ids.count == 5)
        let first = try #require(try stack.fetchObjectID(From<Person>().orderBy(.ascending(\.age))))
        #expect(first == ids[0])
        #expect(stack.fetchExisting(first)?.name == "Ann")
        #expect(try stack.fetchOne(From<Person>().where(\.age > 100)) == nil)
    }

    @Test func identityMapReturnsTheSameObject() throws {
        let first = try #require(try stack.fetchOne(From<Person>().where(\.name == "Ann")))
        let again = try #require(try stack.fetchOne(From<Person>().where(\.age == 10)))
        #expect(first === again)
    }

    @Test func keyPathsThatAreNotStoredAreClearErrors() {
        #expect(throws: StrataError.invalidQuery("KeyPath<Person, Snapshot> does not name a stored property of 'Person'; "
            + "a path through more than two to-one relationships is written with ~ (\\.owner ~ \\.address ~ \\.city), "
            + "and a to-many relationship is tested with .any, .all, .none or its count")) {
            try stack.fetchAll(From<Person>().where(\.snapshot == Person.Snapshot(objectID: ObjectID(key: ObjectKey(storage: 0, table: 0, rowID: 0), entityName: "Person"), name: "", age: 0,
                                                                             nickname: nil, balance: 0)))
        }
        #expect(throws: StrataError.invalidQuery("KeyPath<Person, Snapshot> does not name a stored property of 'Person'; "
            + "a path through more than two to-one relationships is written with ~ (\\.owner ~ \\.address ~ \\.city), "
            + "and a to-many relationship is tested with .any, .all, .none or its count")) {
            try stack.fetchAll(From<Person>().orderBy(.ascending(\.snapshot)))
        }
    }
}

extension Person.Snapshot: QueryableAttributeType {
    var sqlValue: SQLValue { .null }
    init?(sqlValue: SQLValue) { nil }
}
