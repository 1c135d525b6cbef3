import Foundation
import Testing
@testable import Strata

/// Updates bind only the changed columns, numbered in column order; a file store read back by a
/// new stack shows every column where it belongs.
@Suite("Column binding")
@MainActor
struct ColumnBinderTests {
    @Test func anUpdateWritesExactlyTheChangedColumnsOfEveryLevel() async throws {
        let url = temporaryStoreURL()
        let stack = DataStack(Zoo.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: url))
        let (catID, ownerID) = try await stack.perform { transaction in
            let owner = transaction.create(Into<Person>())
            owner.name = "Ann"
            owner.age = 30
            owner.score = 1.5
            owner.email = "ann@example.com"
            let cat = transaction.create(Into<Cat>())
            cat.species = "cat"
            cat.lives = 9
            return (cat.objectID(as: Cat.self), owner.objectID(as: Person.self))
        }
        try await stack.perform { transaction in
            let cat = try #require(transaction.edit(catID))
            cat.lives = 7
            cat.owner = transaction.edit(ownerID)
            let owner = try #require(transaction.edit(ownerID))
            owner.score = 2.5
            owner.nickname = "A"
        }
        let reopened = DataStack(Zoo.schemaHistory)
        try reopened.addStorageAndWait(SQLiteStore(fileURL: url))
        let cat = try #require(try reopened.fetchOne(From<Cat>()))
        #expect(cat.species == "cat" && cat.lives == 7 && cat.owner?.name == "Ann")
        let owner = try #require(try reopened.fetchOne(From<Person>()))
        #expect(owner.name == "Ann" && owner.age == 30 && owner.score == 2.5 && owner.nickname == "A" && owner.email == "ann@example.com")
    }
}
