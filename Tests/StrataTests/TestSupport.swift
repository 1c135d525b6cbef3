import Foundation
import StrataTestSupport
@testable import Strata

/// A stack over a fresh, empty store of the backend the suite runs against (on PostgreSQL, with
/// `busyTimeout` for its transactions' wait for a writer, when given).
func makeStack(busyTimeout: Duration? = nil) throws -> DataStack {
    TestLog.install()
    let stack = DataStack(Zoo.schemaHistory)
    try stack.addStorageAndWait(freshStore(busyTimeout: busyTimeout))
    return stack
}

/// A path in a fresh temporary folder.
func temporaryStoreURL(_ name: String = "Zoo.sqlite") -> URL {
    let folder = TestFolders.url("strata-runtime")
    return folder.appendingPathComponent(name)
}

/// Creates people named after `names`, aged by position (10, 20, ...).
@discardableResult
func addPeople(_ names: [String], to stack: DataStack) async throws -> [ObjectID<Person>] {
    try await stack.perform { transaction in
        names.enumerated().map { offset, name in
            let person = transaction.create(Into<Person>())
            person.name = name
            person.age = Int16((offset % 3_000 + 1) * 10)
            return person.objectID(as: Person.self)
        }
    }
}

/// The Zoo entities split over three configurations; `Person` lives in two of them.
let splitHistory = SchemaHistory(model: "Split", versions: [
    ModelVersion("V1", entities: Zoo.v1.entities, configurations: ["People": ["Person"], "Pets": ["Animal", "Dog", "Cat"], "Backup": ["Person"]],
                 versionLock: ["Person": [1, 1, 1, 1]]),
], migrationChain: ["V1"], current: "V1", entityTypes: [Person.self, Animal.self, Dog.self, Cat.self])
