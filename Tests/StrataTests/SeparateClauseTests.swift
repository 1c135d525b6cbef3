import Foundation
import Testing
@testable import Strata

/// Clauses passed as separate arguments, as CoreStore code writes fetches and queries, with the
/// same results as the chained form, and `Tweak`'s request options.
@Suite("Clauses as separate arguments")
@MainActor
struct SeparateClauseTests {
    let stack: DataStack

    init() async throws {
        stack = try makeStack()
        try await stack.perform { transaction in
            for (name, age, active) in [("Ann", 10, true), ("Bob", 20, false), ("Cid", 30, true), ("Dee", 40, true)] {
                let person = transaction.create(Into<Person>())
                person.name = name
                person.age = Int16(age)
                person.isActive = active
            }
            for species in ["rex", "fido"] { transaction.create(Into<Dog>()).species = species }
            transaction.create(Into<Cat>()).species = "tom"
        }
    }

    @Test func fetchesMatchTheChainedForm() throws {
        let older = try stack.fetchAll(From<Person>(), Where<Person>(\.age > 10), OrderBy<Person>(.descending(\.age)))
        #expect(older.map(\.name) == ["Dee", "Cid", "Bob"])
        let limited = try stack.fetchAll(From<Person>(), Where<Person>(\.age > 10), OrderBy<Person>(.ascending(\.name)), Tweak { $0.fetchLimit = 2 })
        #expect(limited.map(\.name) == ["Bob", "Cid"])
        #expect(try stack.fetchAll(From<Person>(), [Where<Person>(\.isActive == true), OrderBy<Person>(.ascending(\.age))]).map(\.name)
            == ["Ann", "Cid", "Dee"])
        #expect(try stack.fetchOne(From<Person>(), OrderBy<Person>(.descending(\.age)))?.name == "Dee")
        #expect(try stack.fetchCount(From<Person>(), Where<Person>(\.age >= 20)) == 3)
        #expect(try stack.fetchObjectIDs(From<Person>(), Where<Person>(\.age >= 30)).count == 2)
        #expect(try stack.fetchObjectID(From<Person>(), Where<Person>(\.name == "Bob")) != nil)
        #expect(try From<Person>().refined(by: [Where<Person>(\.age > 10), OrderBy<Person>(.ascending(\.name)), Tweak { $0.limit = 2 }])
            == From<Person>().where(\.age > 10).orderBy(.ascending(\.name)).tweak { $0.limit = 2 })
    }

    @Test func chainsStartWithoutParentheses() throws {
        #expect(try stack.fetchOne(From<Person>.where(\.name == "Cid"))?.age == 30)
        #expect(From<Person>.where(\.name == "Cid") == From<Person>().where(\.name == "Cid"))
        #expect(try stack.fetchAll(From<Person>.orderBy(.descending(\.age))).first?.name == "Dee")
        #expect(try stack.fetchCount(From<Person>.tweak { $0.fetchLimit = 2 }) == 2)
    }

    @Test func conditionsAccumulateAndALaterTweakReplacesAnEarlierOne() throws {
        let fetch = try From<Person>().refined(by: [
            Where<Person>(\.age > 10), Tweak { $0.limit = 1 }, Where<Person>(\.isActive == true),
            OrderBy<Person>(.ascending(\.name)), OrderBy<Person>(.descending(\.age)), Tweak { $0.offset = 1 },
        ])
        #expect(fetch.description == "From<Person>.where(age > 10).where(isActive == 1).orderBy(name ascending, age descending).tweak(offset: 1)")
        #expect(try stack.fetchAll(fetch).map(\.name) == ["Dee"])
    }

    @Test func transactionsReadersAndDeletesTakeSeparateClauses() async throws {
        let names = try await stack.perform { transaction in
            try transaction.fetchAll(From<Person>(), Where<Person>(\.age < 30), OrderBy<Person>(.ascending(\.age))).map(\.name)
        }
        #expect(names == ["Ann", "Bob"])
        let count = try await stack.read { reader in try reader.fetchCount(From<Person>(), Where<Person>(\.isActive == false)) }
        #expect(count == 1)
        let deleted = try await stack.perform { transaction in try transaction.deleteAll(From<Person>(), Where<Person>(\.age > 30)) }
        #expect(deleted == 1)
        #expect(try stack.fetchCount(From<Person>()) == 3)
    }

    @Test func queriesTakeSelectAndSeparateClauses() throws {
        #expect(try stack.queryValue(From<Person>(), Select<Person, Int16>(.maximum(\.age)), Where<Person>(\.age < 40)) == 30)
        let oldest: Int? = try stack.queryValue(From<Person>(), Select(.maximum(\.age)))
        #expect(oldest == 40)
        let rows = try stack.queryAttributes(From<Person>(), Select(.attribute(\.isActive), .count(\.age, as: "n")),
                                             GroupBy<Person>(\.isActive), OrderBy<Person>(.ascending(\.isActive)))
        #expect(rows.map { "\($0["isActive"] ?? "") \($0["n"] ?? "")" } == ["false 1", "true 3"])
        let inTransaction = try stack.perform(synchronous: { transaction in
            try transaction.queryValue(From<Person>(), Select<Person, Int>(.count(\.age)), Where<Person>(\.isActive == true))
        })
        #expect(inTransaction == 3)
    }

    @Test func aClauseOfASuperentityRefinesAFetchOfASubentity() throws {
        let dogs = try stack.fetchAll(From<Dog>(), Where<Animal>(\.species == "rex"), OrderBy<Animal>(.ascending(\.species)))
        #expect(dogs.map(\.species) == ["rex"])
    }

    @Test func aClauseOfAnotherEntityIsAnError() {
        #expect(throws: StrataError.invalidQuery(
            "Where<Dog> cannot refine a fetch of 'Animal'; a clause's entity must be the fetched entity or one it inherits from")) {
            try stack.fetchAll(From<Animal>(), Where<Dog>(\.nickname == nil))
        }
        #expect(throws: StrataError.invalidQuery(
            "OrderBy<Dog> cannot refine a fetch of 'Person'; a clause's entity must be the fetched entity or one it inherits from")) {
            try stack.fetchCount(From<Person>(), OrderBy<Dog>(.ascending(\.species)))
        }
        #expect(throws: StrataError.invalidQuery(
            "GroupBy<Dog> cannot refine a fetch of 'Person'; a clause's entity must be the fetched entity or one it inherits from")) {
            try stack.queryAttributes(From<Person>(), Select(.count(\.age)), GroupBy<Dog>(\.species))
        }
    }

    @Test func subentitiesCanBeLeftOut() throws {
        #expect(try stack.fetchCount(From<Animal>()) == 3)
        #expect(try stack.fetchCount(From<Animal>(), Tweak { $0.includesSubentities = false }) == 0)
        #expect(try stack.fetchAll(From<Dog>().orderBy(.ascending(\.species)).tweak { $0.includesSubentities = false }).map(\.species)
            == ["fido", "rex"])
        #expect(try stack.queryValue(From<Animal>().select(Int.self, .count(\.species)).tweak { $0.includesSubentities = false }) == 0)
        #expect(try stack.queryValue(From<Cat>().select(Int.self, .count(\.species)).tweak { $0.includesSubentities = false }) == 1)
        let monitor = try stack.monitorList(From<Animal>(), OrderBy<Animal>(.ascending(\.species)), Tweak { $0.includesSubentities = false })
        #expect(monitor.numberOfObjects == 0)
    }

    @Test func distinctQueryRows() throws {
        let all = try stack.queryAttributes(From<Person>(), Select(.attribute(\.isActive)))
        let distinct = try stack.queryAttributes(From<Person>(), Select(.attribute(\.isActive)), OrderBy<Person>(.ascending(\.isActive)),
                                                 Tweak { $0.returnsDistinctResults = true })
        #expect(all.count == 4)
        #expect(distinct.map { "\($0["isActive"] ?? "")" } == ["false", "true"])
    }

    @Test func coreDataNamesForLimitAndOffset() throws {
        var tweak = Tweak()
        tweak.fetchLimit = 3
        tweak.fetchOffset = 1
        #expect(tweak.limit == 3 && tweak.offset == 1 && tweak.fetchLimit == 3 && tweak.fetchOffset == 1)
        tweak.fetchLimit = 0
        tweak.fetchOffset = 0
        #expect(tweak == Tweak())
        #expect(Tweak { $0.includesSubentities = false; $0.returnsDistinctResults = true }.description
            == "Tweak(includesSubentities: false, returnsDistinctResults: true)")
    }

    @Test func negativeLimitsAndOffsetsAreErrors() {
        #expect(throws: StrataError.invalidQuery("a fetch limit must not be negative (it is -1)")) {
            try stack.fetchAll(From<Person>(), Tweak { $0.limit = -1 })
        }
        #expect(throws: StrataError.invalidQuery("a fetch offset must not be negative (it is -2)")) {
            try stack.queryAttributes(From<Person>(), Select(.attribute(\.age)), Tweak { $0.offset = -2 })
        }
        #expect(throws: StrataError.invalidQuery("a fetch limit must not be negative (it is -5)")) {
            try stack.monitorList(From<Person>().orderBy(.ascending(\.name)).tweak { $0.limit = -5 })
        }
    }

    @Test func monitorsTakeSeparateClauses() throws {
        let monitor = try stack.monitorList(From<Person>(), Where<Person>(\.age > 10), OrderBy<Person>(.ascending(\.name)))
        #expect(monitor.objects.map(\.name) == ["Bob", "Cid", "Dee"])
        let sectioned = try stack.monitorSectionedList(From<Person>(), SectionBy<Person>(\.isActive), OrderBy<Person>(.ascending(\.name)))
        #expect(sectioned.numberOfSections == 2)
        #expect(sectioned.objects(inSection: 1).map(\.name) == ["Ann", "Cid", "Dee"])
    }

    @Test func fetchExistingOfAnArrayOfIDsNeedsNoAnnotation() async throws {
        let ids = try stack.fetchObjectIDs(From<Person>().orderBy(.ascending(\.name)))
        let onMain = stack.fetchExisting(ids)
        #expect(onMain.map(\.name) == ["Ann", "Bob", "Cid", "Dee"])
        let inTransaction = try await stack.perform { transaction in
            let people = transaction.fetchExisting(ids)
            return people.map(\.name)
        }
        #expect(inTransaction == ["Ann", "Bob", "Cid", "Dee"])
        let inReader = try await stack.read { reader in
            let people = reader.fetchExisting(ids)
            return people.count
        }
        #expect(inReader == 4)
        let slice: [Person] = stack.fetchExisting(ids.prefix(2))
        #expect(slice.map(\.name) == ["Ann", "Bob"])
    }
}
