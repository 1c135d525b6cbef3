import Foundation
import StrataTestSupport
import Testing
@testable import Strata

@Suite("Transactions")
@MainActor
struct TransactionTests {
    @Test func editsReachTheMainContextBeforeAwaitReturns() async throws {
        let stack = try makeStack()
        let ids = try await addPeople(["Ann"], to: stack)
        let ann = try #require(stack.fetchExisting(ids[0]))
        #expect(ann.age == 10)
        try await stack.perform { transaction in
            let mine = try #require(transaction.edit(ids[0]))
            mine.age = 11
            mine.nickname = "A"
        }
        #expect(ann.age == 11)
        #expect(ann.nickname == "A")
    }

    @Test func completionHandlersSeeTheCommit() async throws {
        let stack = try makeStack()
        let name: String = try await withCheckedThrowingContinuation { continuation in
            stack.perform(asynchronous: { transaction -> ObjectID<Person> in
                let person = transaction.create(Into<Person>())
                person.name = "Cy"
                return person.objectID(as: Person.self)
            }, success: { id in
                continuation.resume(returning: stack.fetchExisting(id)?.name ?? "missing")
            }, failure: { error in
                continuation.resume(throwing: error)
            })
        }
        #expect(name == "Cy")
        let failure: StrataError? = await withCheckedContinuation { continuation in
            stack.perform(asynchronous: { transaction -> Void in
                try transaction.cancel()
            }, completion: { result in
                if case .failure(let error) = result { continuation.resume(returning: error) } else { continuation.resume(returning: nil) }
            })
        }
        #expect(failure == .userCancelled)
    }

    @Test func deletionsReachTheMainContext() async throws {
        let stack = try makeStack()
        let ids = try await addPeople(["Ann", "Bob", "Cid"], to: stack)
        let bob = try #require(stack.fetchExisting(ids[1]))
        try await stack.perform { transaction in
            transaction.delete(transaction.edit(ids[1]))
        }
        #expect(bob.isDeleted)
        #expect(try stack.fetchAll(From<Person>().orderBy(.ascending(\.name))).map(\.name) == ["Ann", "Cid"])
        let removed = try await stack.perform { transaction in try transaction.deleteAll(From<Person>().where(\.age > 15)) }
        #expect(removed == 1)
        #expect(try stack.fetchCount(From<Person>()) == 1)
    }

    /// CoreStore's `perform(synchronous:waitForAllObservers:)`: false lets the main context see the
    /// commit on the main queue's next turn rather than before the call returns.
    @Test func synchronousTransactionsCanLeaveObserversForLater() async throws {
        let stack = try makeStack()
        #expect(try stack.fetchCount(From<Person>()) == 0)
        try stack.perform(synchronous: { t in t.create(Into<Person>()).name = "Later" }, waitForAllObservers: false)
        #expect(try stack.fetchCount(From<Person>()) == 0, "the main context still reads its snapshot")
        await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
        #expect(try stack.fetchCount(From<Person>()) == 1)
        try stack.perform(synchronous: { t in t.create(Into<Person>()).name = "Now" }, waitForAllObservers: true)
        #expect(try stack.fetchCount(From<Person>()) == 2)
    }

    @Test func aThrowingClosureRollsBackEverything() async throws {
        struct Oops: Error {}
        let stack = try makeStack()
        try await addPeople(["Ann"], to: stack)
        await #expect(throws: Oops.self) {
            try await stack.perform { transaction in
                let person = transaction.create(Into<Person>())
                person.name = "Ghost"
                transaction.delete(try transaction.fetchOne(From<Person>()))
                _ = try transaction.fetchAll(From<Person>())
                throw Oops()
            }
        }
        await #expect(throws: StrataError.userCancelled) {
            try await stack.perform { transaction in
                let person = transaction.create(Into<Person>())
                person.name = "Ghost"
                _ = try transaction.fetchCount(From<Person>())
                try transaction.cancel()
            }
        }
        #expect(try stack.fetchAll(From<Person>()).map(\.name) == ["Ann"])
    }

    @Test func fetchesInsideATransactionSeeItsOwnChanges() async throws {
        let stack = try makeStack()
        try await addPeople(["Ann", "Bob"], to: stack)
        let seen = try await stack.perform { transaction in
            let ann = try #require(try transaction.fetchOne(From<Person>().where(\.name == "Ann")))
            ann.age = 99
            transaction.delete(try transaction.fetchOne(From<Person>().where(\.name == "Bob")))
            let new = transaction.create(Into<Person>())
            new.name = "Cid"
            new.age = 5
            let withPending = try transaction.fetchAll(From<Person>().orderBy(.ascending(\.age))).map(\.name)
            let committed = try transaction.fetchAll(From<Person>().orderBy(.ascending(\.age)).tweak { $0.includesPendingChanges = false }).map(\.name)
            let sameObject = try transaction.fetchOne(From<Person>().where(\.age == 99)) === ann
            return (withPending, committed, sameObject, transaction.hasChanges)
        }
        #expect(seen.0 == ["Cid", "Ann"])
        #expect(seen.1 == ["Ann", "Bob"])
        #expect(seen.2)
        #expect(seen.3)
    }

    @Test func transactionsReportTheirChanges() async throws {
        let stack = try makeStack()
        let ids = try await addPeople(["Ann", "Bob"], to: stack)
        let counts = try await stack.perform { transaction in
            #expect(!transaction.hasChanges)
            transaction.edit(ids[0])?.age = 1
            transaction.delete(transaction.edit(ids[1]))
            transaction.create(Into<Person>()).name = "Cid"
            return (transaction.insertedObjects().count, transaction.updatedObjects().count, transaction.deletedObjectIDs(Person.self))
        }
        #expect(counts.0 == 1)
        #expect(counts.1 == 1)
        #expect(counts.2 == [ids[1]])
    }

    @Test func synchronousPerform() throws {
        let stack = try makeStack()
        let id = try stack.perform(synchronous: { transaction in
            let person = transaction.create(Into<Person>())
            person.name = "Sync"
            return person.objectID(as: Person.self)
        })
        #expect(stack.fetchExisting(id)?.name == "Sync")
        #expect(throws: StrataError.synchronousPerformInsideTransaction) {
            try stack.perform(synchronous: { _ in
                try stack.perform(synchronous: { _ in })
            })
        }
    }

    @Test func synchronousPerformInsideAnAsynchronousOneIsAnError() async throws {
        let stack = try makeStack()
        await #expect(throws: StrataError.synchronousPerformInsideTransaction) {
            try await stack.perform { _ in
                try stack.perform(synchronous: { _ in })
            }
        }
    }

    @Test func unsafeTransactionsCommitRepeatedly() async throws {
        let stack = try makeStack()
        let transaction = stack.beginUnsafe()
        let person = transaction.create(Into<Person>())
        person.name = "First"
        try transaction.commit()
        #expect(try stack.fetchAll(From<Person>()).map(\.name) == ["First"])
        person.name = "Renamed"
        #expect(transaction.hasChanges)
        try transaction.commit()
        #expect(try stack.fetchAll(From<Person>()).map(\.name) == ["Renamed"])
        transaction.create(Into<Person>()).name = "Dropped"
        transaction.rollback()
        try transaction.commit()
        #expect(try stack.fetchCount(From<Person>()) == 1)
    }

    @Test func requiredValuesMustBeSet() async throws {
        let stack = try makeStack()
        await #expect(throws: StrataError.missingValue(entity: "Person", attribute: "name")) {
            try await stack.perform { transaction in
                transaction.create(Into<Person>()).age = 3
            }
        }
        #expect(try stack.fetchCount(From<Person>()) == 0)
    }

    @Test func aRequiredValueStillUnsetAfterAFetchWroteTheRowFailsTheCommit() async throws {
        let stack = try makeStack()
        await #expect(throws: StrataError.missingValue(entity: "Person", attribute: "name")) {
            try await stack.perform { transaction in
                let person = transaction.create(Into<Person>())
                person.age = 3
                // Both fetches write the new row first: the first inserts it, the second updates it.
                _ = try transaction.fetchCount(From<Person>())
                person.age = 4
                _ = try transaction.fetchCount(From<Person>())
            }
        }
        #expect(try stack.fetchCount(From<Person>()) == 0)
    }

    @Test func aRequiredValueSetAfterAFetchWroteTheRowSatisfiesTheCommit() async throws {
        let stack = try makeStack()
        try await stack.perform { transaction in
            let person = transaction.create(Into<Person>())
            person.age = 3
            _ = try transaction.fetchCount(From<Person>())
            person.name = "Late"
            _ = try transaction.fetchCount(From<Person>())
            // A write that changes another column leaves the name known as set.
            person.age = 4
            _ = try transaction.fetchCount(From<Person>())
        }
        #expect(try stack.fetchAll(From<Person>()).map(\.name) == ["Late"])
    }

    @Test func uniquenessViolationsRollBack() async throws {
        let stack = try makeStack()
        try await stack.perform { transaction in
            let person = transaction.create(Into<Person>())
            person.name = "A"
            person.email = "a@example.com"
        }
        await #expect(throws: StrataError.uniquenessViolation(entity: "Person", attributes: ["e_mail"])) {
            try await stack.perform { transaction in
                let other = transaction.create(Into<Person>())
                other.name = "B"
                let clash = transaction.create(Into<Person>())
                clash.name = "C"
                clash.email = "a@example.com"
            }
        }
        #expect(try stack.fetchAll(From<Person>()).map(\.name) == ["A"])
    }

    @Test func rowIDsOfDeletedRowsAreNeverReused() async throws {
        let url = temporaryStoreURL()
        let first = DataStack(Zoo.schemaHistory)
        try first.addStorageAndWait(SQLiteStore(fileURL: url))
        let ids = try await addPeople(["A", "B"], to: first)
        try await first.perform { transaction in transaction.delete(transaction.edit(ids[1])) }
        let second = DataStack(Zoo.schemaHistory)
        try second.addStorageAndWait(SQLiteStore(fileURL: url))
        let next = try await addPeople(["C"], to: second)
        #expect(next[0].rowID == ids[1].rowID + 1)
    }

    @Test func polymorphicFetches() async throws {
        let stack = try makeStack()
        try await stack.perform { transaction in
            let dog = transaction.create(Into<Dog>())
            dog.species = "dog"
            dog.nickname = "Rex"
            let cat = transaction.create(Into<Cat>())
            cat.species = "cat"
            cat.lives = 7
        }
        let animals = try stack.fetchAll(From<Animal>().orderBy(.ascending(\.species)))
        #expect(animals.map { String(describing: type(of: $0)) } == ["Cat", "Dog"])
        #expect((animals[0] as? Cat)?.lives == 7)
        #expect((animals[1] as? Dog)?.nickname == "Rex")
        #expect(try stack.fetchAll(From<Dog>()).map(\.nickname) == ["Rex"])
        #expect(try stack.fetchCount(From<Cat>().where(\.lives == 7)) == 1)
        #expect(try stack.fetchCount(From<Animal>().where(\.species == "dog")) == 1)
    }
}

@Suite("Debug descriptions")
struct DebugDescriptionTests {
    @Test func transactionsAndObjectsDescribeThemselves() async throws {
        let stack = try makeStack()
        let text = try await stack.perform { transaction in
            let person = transaction.create(Into<Person>())
            person.name = "Ann"
            return (transaction.debugDescription, person.debugDescription)
        }
        #expect(text.0 == "<AsynchronousDataTransaction: 1 created, 0 updated, 0 deleted>")
        #expect(text.1 == "<Person #1 (transaction)>")
        switch TestBackend.current {
        case .sqlite: #expect(stack.debugDescription == "DataStack(Zoo V1: Default: in-memory store)")
        case .postgresql: #expect(stack.debugDescription.hasPrefix("DataStack(Zoo V1: Default: postgres://strata@/runtime_"))
        }
    }
}
