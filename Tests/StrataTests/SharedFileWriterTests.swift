import Foundation
import Testing
@testable import Strata

/// Two stacks writing one file: each takes the row ids the other used before handing out its own.
@Suite("Stacks sharing a file")
struct SharedFileWriterTests {
    @Test func twoStacksInsertingInTurnNeverCollide() async throws {
        let url = temporaryStoreURL()
        let first = DataStack(Zoo.schemaHistory)
        try first.addStorageAndWait(SQLiteStore(fileURL: url))
        let second = DataStack(Zoo.schemaHistory)
        try second.addStorageAndWait(SQLiteStore(fileURL: url))
        var ids: [ObjectID<Person>] = []
        for round in 0..<10 {
            for stack in [first, second] {
                ids += try await stack.perform { transaction in
                    (0..<(round % 3 + 1)).map { index in
                        let person = transaction.create(Into<Person>())
                        person.name = "\(round).\(index)"
                        return person.objectID(as: Person.self)
                    }
                }
            }
        }
        #expect(Set(ids).count == ids.count)
        let count = try await first.perform { transaction in try transaction.fetchCount(From<Person>()) }
        #expect(count == ids.count)
    }

    @Test func aSynchronousTransactionAfterAnotherStacksCommitGetsFreshIDs() throws {
        let url = temporaryStoreURL()
        let first = DataStack(Zoo.schemaHistory)
        try first.addStorageAndWait(SQLiteStore(fileURL: url))
        let second = DataStack(Zoo.schemaHistory)
        try second.addStorageAndWait(SQLiteStore(fileURL: url))
        func add(_ stack: DataStack) throws -> ObjectID<Person> {
            try stack.perform(synchronous: { transaction in
                let person = transaction.create(Into<Person>())
                person.name = "x"
                return person.objectID(as: Person.self)
            })
        }
        let a = try add(first)
        let b = try add(second)
        let c = try add(first)
        #expect([a.rowID, b.rowID, c.rowID] == [1, 2, 3])
    }
}
