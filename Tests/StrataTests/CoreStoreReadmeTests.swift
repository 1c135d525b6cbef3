import Foundation
import Testing
@testable import Strata

/// CoreStore's README, snippet by snippet, as the "Coming from CoreStore" table in our README
/// spells each one (the zoo's `Person` stands in for `MyPersonEntity`). Where the table says
/// "same", the snippet here is CoreStore's, with only the entity and its attributes changed.
@Suite("CoreStore's README in Strata")
@MainActor
struct CoreStoreReadmeTests {
    let dataStack: DataStack

    init() async throws {
        dataStack = try makeStack()
        try await dataStack.perform { transaction in
            for (name, age) in [("John Smith", 30), ("Jane Doe", 22), ("Joe", 42)] {
                let person = transaction.create(Into<Person>())
                person.name = name
                person.age = Int16(age)
            }
        }
    }

    private func completion<T: Sendable>(_ start: (@escaping @MainActor @Sendable (Result<T, StrataError>) -> Void) -> Void) async -> Result<T, StrataError> {
        await withCheckedContinuation { continuation in start { continuation.resume(returning: $0) } }
    }

    @Test func asynchronousTransactionsWithResultsAndCancellation() async throws {
        let hasChanges: Result<Bool, StrataError> = await completion { done in
            dataStack.perform(
                asynchronous: { (transaction) -> Bool in
                    transaction.create(Into<Person>()).name = "New"
                    return transaction.hasChanges
                },
                completion: done
            )
        }
        #expect(try hasChanges.get() == true)

        let shouldCancel = true
        let cancelled: Result<Void, StrataError> = await completion { done in
            dataStack.perform(
                asynchronous: { (transaction) -> Void in
                    transaction.create(Into<Person>()).name = "Never"
                    if shouldCancel {
                        try transaction.cancel()
                    }
                },
                completion: done
            )
        }
        if case .failure(.userCancelled) = cancelled {} else { Issue.record("expected userCancelled, got \(cancelled)") }
        #expect(try dataStack.fetchCount(From<Person>.where(\.name == "Never")) == 0)
    }

    @Test func successAndFailureHandlersGetTheDeletedCount() async throws {
        let ids = try dataStack.fetchObjectIDs(From<Person>(), Where<Person>(\.age > 25))
        let deleted: Result<Int, StrataError> = await completion { done in
            dataStack.perform(
                asynchronous: { (transaction) -> Int in
                    let objects = transaction.fetchExisting(ids)
                    return transaction.delete(objects)
                },
                success: { (numberOfDeletedObjects: Int) -> Void in done(.success(numberOfDeletedObjects)) },
                failure: { (error) -> Void in done(.failure(error)) }
            )
        }
        #expect(try deleted.get() == 2)
    }

    @Test func synchronousTransactions() throws {
        let hasChanges = try dataStack.perform(
            synchronous: { (transaction) -> Bool in
                transaction.create(Into<Person>(nil)).name = "Sync"
                return transaction.hasChanges
            }
        )
        #expect(hasChanges)
        try dataStack.perform(
            synchronous: { (transaction) in
                let person = transaction.create(Into<Person>())
                person.name = "John"
            },
            waitForAllObservers: false
        )
        let newPerson = try dataStack.fetchOne(From<Person>.where(\.name == "John"))
        #expect(newPerson?.name == "John")
    }

    @Test func creatingUpdatingAndDeleting() async throws {
        let jane = try #require(try dataStack.fetchOne(From<Person>().where(\.name == "Jane Doe")))
        let john = try #require(try dataStack.fetchOne(From<Person>().where(\.name == "John Smith")))
        // Objects cross into a synchronous transaction (its closure is not @Sendable); an
        // asynchronous one takes their IDs: transaction.edit(jane.objectID(as: Person.self)).
        try dataStack.perform(synchronous: { (transaction) -> Void in
            let jane = transaction.edit(jane)!
            let john = transaction.edit(john)!
            jane.friends = [john]
            jane.age += 1
        })
        #expect(jane.age == 23 && jane.friends.map(\.name) == ["John Smith"])
        let deleted = try dataStack.perform(synchronous: { (transaction) -> Int in
            transaction.delete(john, jane) + transaction.delete([john, jane])
        })
        #expect(deleted == 2)
        try await dataStack.perform { (transaction) -> Void in
            try transaction.deleteAll(From<Person>(), Where<Person>(\.age > 30))
        }
        #expect(try dataStack.fetchCount(From<Person>()) == 0)
    }

    @Test func passingObjectsOutAsIDs() async throws {
        let peopleIDs = try dataStack.fetchObjectIDs(From<Person>().where(\.name != "Jane Doe"))
        let janeID = try await dataStack.perform { (transaction) -> ObjectID<Person> in
            let jane = try transaction.fetchOne(From<Person>().where(\.name == "Jane Doe"))!
            jane.friends = transaction.fetchExisting(peopleIDs)
            return jane.objectID(as: Person.self)
        }
        let jane = dataStack.fetchExisting(janeID)!
        #expect(jane.friends.count == 2)
    }

    @Test func fetchClausesAsCoreStoreWritesThem() async throws {
        #expect(try dataStack.fetchAll(From<Person>(), Where<Person>(true)).count == 3)
        #expect(try dataStack.fetchAll(From<Person>().where(\.age > 25 && \.name != "Joe")).map(\.name) == ["John Smith"])
        let sortFromYoungest = true
        var orderBy = OrderBy<Person>(.ascending(\.nickname))
        if sortFromYoungest {
            orderBy += OrderBy(.ascending(\.age))
        }
        #expect(try dataStack.fetchAll(From<Person>(), orderBy).map(\.age) == [22, 30, 42])
        let committedOnly = try await dataStack.perform { transaction in
            let pending = transaction.create(Into<Person>())
            pending.name = "Pending"
            pending.age = 50
            return try transaction.fetchAll(
                From<Person>(),
                Where<Person>(\.age > 25),
                OrderBy<Person>(.ascending(\.name)),
                Tweak { (fetchRequest) -> Void in
                    fetchRequest.includesPendingChanges = false
                    fetchRequest.includesSubentities = false
                }
            ).map(\.name)
        }
        #expect(committedOnly == ["Joe", "John Smith"])
    }

    @Test func queriesAsCoreStoreWritesThem() throws {
        let johnsAge = try dataStack.queryValue(
            From<Person>(),
            Select<Person, Int>(.attribute(\.age)),
            Where<Person>(\.name == "John Smith")
        )
        #expect(johnsAge == 30)
        #expect(try dataStack.queryValue(From<Person>().select(\.age).where(\.name == "John Smith")) == 30)
        let oldestAge = try dataStack.queryValue(From<Person>(), Select<Person, Int>(.maximum(\.age)))
        #expect(oldestAge == 42)
        let personJSON = try dataStack.queryAttributes(From<Person>(), Select(.attribute(\.name), .attribute(\.age)), OrderBy<Person>(.ascending(\.age)))
        #expect(personJSON.map { "\($0["name"] ?? "") \($0["age"] ?? "")" } == ["Jane Doe 22", "John Smith 30", "Joe 42"])
        let counts = try dataStack.queryAttributes(
            From<Person>(),
            Select(.attribute(\.isActive), .count(\.age, as: "count")),
            GroupBy<Person>(\.isActive)
        )
        #expect(counts.map { "\($0["isActive"] ?? "") \($0["count"] ?? "")" } == ["true 3"])
    }

    @Test func listMonitorsAsCoreStoreWritesThem() throws {
        let monitor = try dataStack.monitorList(
            From<Person>()
                .where(\.age > 20)
                .orderBy(.ascending(\.name))
                .tweak { $0.fetchLimit = 2 }
        )
        #expect(monitor.objects.map(\.name) == ["Jane Doe", "Joe"])
        let firstPerson = monitor.object(at: 0)
        #expect(firstPerson?.name == "Jane Doe")
        let sectioned = try dataStack.monitorSectionedList(
            From<Person>()
                .sectionBy(\.age) { (sectionName) -> String? in
                    "\(sectionName ?? "?") years old"
                }
                .orderBy(.ascending(\.age), .ascending(\.name))
        )
        #expect(sectioned.sections.map(\.name) == ["22 years old", "30 years old", "42 years old"])
    }
}
