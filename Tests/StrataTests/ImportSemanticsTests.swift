import Foundation
import Testing
@testable import Strata

/// People imported by name, as a generated importer would: the age comes from `"age"`, a source
/// with `"skip"` is not updated and one with `"new": false` is not inserted.
extension Person: ImportableUniqueObject {
    static var uniqueIDKeyPath: ReferenceWritableKeyPath<Person, String> { \.name }

    static func uniqueID(from source: [String: Any], in transaction: BaseDataTransaction) throws -> String? {
        source["name"] as? String
    }

    static func shouldInsert(from source: [String: Any], in transaction: BaseDataTransaction) -> Bool {
        source["new"] as? Bool ?? true
    }

    static func shouldUpdate(from source: [String: Any], in transaction: BaseDataTransaction) -> Bool {
        source["skip"] == nil
    }

    func didInsert(from source: [String: Any], in transaction: BaseDataTransaction) throws {
        try update(from: source, in: transaction)
    }

    func update(from source: [String: Any], in transaction: BaseDataTransaction) throws {
        if let age = source["age"] as? Int { self.age = Int16(age) }
        nickname = source["nickname"] as? String
    }
}

/// Importing as CoreStore documents it.
@Suite("Import semantics")
struct ImportSemanticsTests {
    @Test func anIDRepeatedInOneArrayIsImportedOnceFromItsLastSource() async throws {
        let stack = try makeStack()
        let imported = try await stack.perform { transaction in
            try transaction.importUniqueObjects(Into<Person>(), sourceArray: [
                ["name": "Ann", "age": 1, "nickname": "A"], ["name": "Bob", "age": 2], ["name": "Ann", "age": 3],
            ]).map { "\($0.name) \($0.age) \($0.nickname ?? "-")" }
        }
        #expect(imported == ["Ann 3 -", "Bob 2 -"])
        #expect(try await stack.perform { try $0.fetchCount(From<Person>()) } == 2)
    }

    @Test func shouldInsertAndShouldUpdateSkipSources() async throws {
        let stack = try makeStack()
        try await stack.perform { transaction in
            _ = try transaction.importUniqueObjects(Into<Person>(), sourceArray: [["name": "Ann", "age": 1], ["name": "Bob", "age": 2, "new": false]])
        }
        let names = try await stack.perform { transaction in
            try transaction.importUniqueObjects(Into<Person>(), sourceArray: [["name": "Ann", "age": 9, "skip": true], ["name": "Cy", "age": 3]]).map(\.name)
        }
        #expect(names == ["Cy"])
        let ages = try await stack.perform { transaction in
            try transaction.fetchAll(From<Person>().orderBy(.ascending(\.name))).map { "\($0.name) \($0.age)" }
        }
        #expect(ages == ["Ann 1", "Cy 3"])
    }

    @Test func importingIntoAnExistingObjectUpdatesIt() async throws {
        let stack = try makeStack()
        let ids = try await addPeople(["Ann"], to: stack)
        try await stack.perform { transaction in
            let ann = try #require(transaction.edit(ids[0]))
            try transaction.importObject(ann, source: ["age": 44, "nickname": "Annie"])
            try transaction.importObject(ann, source: ["age": 55, "skip": true])
        }
        let ann = try await stack.perform { transaction in transaction.fetchExisting(ids[0]).map { "\($0.age) \($0.nickname ?? "-")" } }
        #expect(ann == "44 Annie")
    }
}
