import Foundation
import StrataTestSupport
import Testing
@testable import Strata

/// An unsafe transaction kept across other commits never loses their changes silently: attributes
/// only others changed are merged, attributes both changed follow the merge policy.
@Suite("Merge policies")
@MainActor
struct MergePolicyTests {
    /// Ann's store, which a second stack reads: a file, or a database.
    let store: @Sendable () -> any StorageInterface

    init() throws {
        store = try sharedStore(file: temporaryStoreURL())
    }

    /// A stack on a file with Ann (visits 10), and an unsafe transaction that has read her.
    private func setUp(_ policy: MergePolicy) async throws -> (DataStack, UnsafeDataTransaction, Person, ObjectID<Person>) {
        let stack = DataStack(Zoo.schemaHistory)
        try stack.addStorageAndWait(store())
        let ann = try await stack.perform { transaction in
            let person = transaction.create(Into<Person>())
            person.name = "Ann"
            person.visits = 10
            return person.objectID(as: Person.self)
        }
        let unsafe = stack.beginUnsafe(mergePolicy: policy)
        let mine = try #require(unsafe.fetchExisting(ann))
        #expect(mine.visits == 10)
        // Another commit changes her after the unsafe transaction read her.
        try await stack.perform { transaction in
            let person = try #require(transaction.edit(ann))
            person.visits += 5
            person.nickname = "Annie"
        }
        return (stack, unsafe, mine, ann)
    }

    /// What the file holds, read by a new stack.
    private func stored(_ stack: DataStack, _ id: ObjectID<Person>) throws -> (visits: Int, nickname: String?, name: String) {
        let reader = DataStack(Zoo.schemaHistory)
        try reader.addStorageAndWait(store())
        let person = try #require(try reader.fetchOne(From<Person>().where(\.name != "Bob")))
        return (person.visits, person.nickname, person.name)
    }

    @Test func theDefaultPolicyRefusesToOverwriteAConcurrentChange() async throws {
        let (stack, unsafe, mine, ann) = try await setUp(.error)
        mine.visits += 1
        let expected = StrataError.mergeConflict(objects: ["Person #\(ann.rowID) (visits)"])
        #expect(throws: expected) { try unsafe.commit() }
        #expect(expected.description == "the commit conflicts with changes committed since these objects were read, so nothing was saved: "
            + "Person #\(ann.rowID) (visits); call refreshAndMergeAllObjects() before changing them, or choose another merge policy")
        let row = try stored(stack, ann)
        #expect(row.visits == 15)
        #expect(row.nickname == "Annie")
    }

    @Test func attributesOnlyOthersChangedAreMerged() async throws {
        let (stack, unsafe, mine, ann) = try await setUp(.error)
        mine.name = "Ann Lee"
        try unsafe.commit()
        #expect(mine.visits == 15)
        #expect(mine.nickname == "Annie")
        let row = try stored(stack, ann)
        #expect(row.name == "Ann Lee")
        #expect(row.visits == 15)
        #expect(row.nickname == "Annie")
    }

    @Test func refreshAndMergeAllObjectsBasesChangesOnTheStore() async throws {
        let (stack, unsafe, mine, ann) = try await setUp(.error)
        try unsafe.refreshAndMergeAllObjects()
        #expect(mine.visits == 15)
        mine.visits += 1
        try unsafe.commit()
        #expect(try stored(stack, ann).visits == 16)
    }

    @Test func refreshKeepsChangesNotYetCommitted() async throws {
        let (stack, unsafe, mine, ann) = try await setUp(.error)
        mine.name = "Ann Lee"
        try unsafe.refreshAndMergeAllObjects()
        #expect(mine.name == "Ann Lee")
        #expect(mine.nickname == "Annie")
        try unsafe.commit()
        let row = try stored(stack, ann)
        #expect(row.name == "Ann Lee" && row.visits == 15 && row.nickname == "Annie")
    }

    @Test func keepChangesOverwritesTheOtherCommitsValue() async throws {
        let (stack, unsafe, mine, ann) = try await setUp(.keepChanges)
        mine.visits = 11
        try unsafe.commit()
        let row = try stored(stack, ann)
        #expect(row.visits == 11)
        #expect(row.nickname == "Annie")
    }

    @Test func keepStoreDropsTheConflictingChange() async throws {
        let (stack, unsafe, mine, ann) = try await setUp(.keepStore)
        mine.visits = 11
        mine.name = "Ann Lee"
        try unsafe.commit()
        #expect(mine.visits == 15)
        let row = try stored(stack, ann)
        #expect(row.visits == 15)
        #expect(row.name == "Ann Lee")
    }

    @Test func anObjectAnotherCommitDeletedIsAConflict() async throws {
        let (stack, unsafe, mine, ann) = try await setUp(.error)
        try await stack.perform { transaction in transaction.delete(transaction.edit(ann)) }
        mine.visits = 1
        #expect(throws: StrataError.mergeConflict(objects: ["Person #\(ann.rowID) (deleted)"])) { try unsafe.commit() }
        #expect(try stack.fetchCount(From<Person>()) == 0)
    }

    @Test func underAnotherPolicyADeletedObjectStaysDeleted() async throws {
        let (stack, unsafe, mine, ann) = try await setUp(.keepChanges)
        try await stack.perform { transaction in transaction.delete(transaction.edit(ann)) }
        mine.visits = 1
        try unsafe.commit()
        #expect(mine.isDeleted)
        #expect(try stack.fetchCount(From<Person>()) == 0)
    }

    @Test func aChangedRelationshipIsCheckedLikeAnAttribute() async throws {
        let (stack, unsafe, mine, ann) = try await setUp(.error)
        try await stack.perform { transaction in
            transaction.create(Into<Person>()).name = "Bob"
        }
        let myBob = try #require(try unsafe.fetchOne(From<Person>().where(\.name == "Bob")))
        try await stack.perform { transaction in
            try #require(transaction.edit(ann)).spouse = try transaction.fetchOne(From<Person>().where(\.name == "Bob"))
        }
        mine.spouse = myBob
        // Both set Ann's spouse (and so Bob's, its inverse), even to the same Bob: a conflict.
        let bob = myBob.objectID(as: Person.self)
        #expect(throws: StrataError.mergeConflict(objects: ["Person #\(ann.rowID) (spouse)", "Person #\(bob.rowID) (spouse)"])) {
            try unsafe.commit()
        }
    }

    @Test func aReadThatFlushesGoesOnAndTheCommitReportsTheConflict() async throws {
        let (stack, unsafe, mine, ann) = try await setUp(.error)
        mine.visits += 1
        // Reading flushes pending changes first; the conflicting one is held back, not thrown.
        #expect(try unsafe.fetchCount(From<Person>()) == 1)
        #expect(unsafe.fetchExisting(ann) === mine)
        #expect(throws: StrataError.mergeConflict(objects: ["Person #\(ann.rowID) (visits)"])) { try unsafe.commit() }
        let row = try stored(stack, ann)
        #expect(row.visits == 15)
    }

    @Test func twoIncrementsOfOneCounterConflict() async throws {
        let (_, unsafe, mine, ann) = try await setUp(.error)
        // The other commit added 5; adding 5 here gives the same value and must still conflict.
        mine.visits += 5
        #expect(throws: StrataError.mergeConflict(objects: ["Person #\(ann.rowID) (visits)"])) { try unsafe.commit() }
    }
}
