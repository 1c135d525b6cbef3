import Foundation
import Testing
@testable import Strata

@Suite("Error messages")
struct ErrorMessageTests {
    // Typed up front: a literal this long, with messages joined by `+`, is too much for the type checker to infer.
    static let cases: [(StrataError, String)] = [
        (StrataError.sqlite(code: 19, message: "NOT NULL constraint failed: Person.name", sql: "INSERT INTO \"Person\" (\"name\") VALUES (?)"),
         "SQLite error 19: NOT NULL constraint failed: Person.name (in: INSERT INTO \"Person\" (\"name\") VALUES (?))"),
        (.sqlite(code: 5, message: "database is locked", sql: nil), "SQLite error 5: database is locked"),
        (.notAStore(file: "/a.sqlite", reason: "the file is not a SQLite database (file is not a database)"),
         "'/a.sqlite' is not a Strata store: the file is not a SQLite database (file is not a database)"),
        (.differentModel(file: "/a.sqlite", storeModel: "Zoo", expectedModel: "Farm"), "'/a.sqlite' holds a store of model 'Zoo', not 'Farm'"),
        (.migrationRequired(file: "/a.sqlite", storeVersion: "V1", currentVersion: "V2"),
         "'/a.sqlite' is at version 'V1' and must be migrated to 'V2' before it can be opened; "
         + "add it with 'try await stack.addStorage(_:)', which migrates it (addStorageAndWait migrates only lightweight steps, "
         + "and only with .allowSynchronousLightweightMigration)"),
        (.newerStoreVersion(file: "/a.sqlite", storeVersion: "V4", currentVersion: "V3"),
         "'/a.sqlite' is at version 'V4', which this app's model does not have (its newest is 'V3'); "
         + "a newer version of the app wrote it, or the model no longer lists that version"),
        (.storeBusy(file: "/a.sqlite", milliseconds: 5000),
         "'/a.sqlite' stayed locked by another connection or process for 5000 ms, so the transaction was rolled back; "
         + "try again, or give the storage a longer busyTimeout"),
        (.cannotOpenStore(file: "/a.sqlite", reason: "another connection holds it locked (database is locked)"),
         "cannot open '/a.sqlite': another connection holds it locked (database is locked)"),
        (.noMigrationPath(file: "/a.sqlite", storeVersion: "V3", currentVersion: "V2"),
         "'/a.sqlite' is at version 'V3', from which the migration chain does not lead to 'V2'; it may come from a newer version of the app"),
        (.migrationFailed(file: "/a.sqlite", from: "V1", to: "V2", reason: "why"),
         "migrating '/a.sqlite' from 'V1' to 'V2' failed, and the store was left as it was: why"),
        (.unknownStoreVersion(file: "/a.sqlite", model: "Zoo", storeVersion: "V9"),
         "'/a.sqlite' says it is version 'V9' of 'Zoo', but its locks match no version of this model's history"),
        (.unknownConfiguration("Cache", available: ["Default", "Pets"]), "the model has no configuration 'Cache'; it has Default, Pets"),
        (.ambiguousConfiguration(entity: "Person", configurations: ["People", "Backup"]),
         "'Person' is stored in configurations People, Backup; name one, as in Into<Person>(\"People\")"),
        (.noStorage(entity: "Person"), "no storage added to the stack holds 'Person'; add one with addStorage first"),
        (.storageAlreadyAdded(configuration: "Default"), "a storage for configuration 'Default' was already added"),
        (.deleteDenied(entity: "Person", relationship: "cats", count: 2),
         "cannot delete a 'Person': its relationship 'cats' denies deletion while it has related objects (2)"),
        (.missingValue(entity: "Person", attribute: "name"), "'Person.name' is required but was never given a value"),
        (.uniquenessViolation(entity: "Person", attributes: ["name", "age"]), "saving would give two 'Person' objects the same name, age"),
        (.relationshipCount(entity: "Person", relationship: "friends", count: 4, minimum: 1, maximum: 3),
         "'Person.friends' holds 4 objects but must hold at least 1 and at most 3"),
        (.invalidQuery("a query needs at least one selected term"), "invalid query: a query needs at least one selected term"),
        (.synchronousPerformInsideTransaction, "perform(synchronous:) was called from inside a transaction; that would wait for itself forever"),
        (.userCancelled, "the transaction was cancelled"),
        (.fileSystem(path: "/x", message: "cannot create the folder: denied"), "'/x': cannot create the folder: denied"),
        (.importFailed(entity: "Product", attribute: "stock", key: "stock", reason: "expected a number"),
         "cannot import 'Product.stock' from key 'stock': expected a number"),
        (.mergeConflict(objects: ["Person #3 (visits, name)", "Dog #4 (deleted)"]),
         "the commit conflicts with changes committed since these objects were read, so nothing was saved: Person #3 (visits, name); "
            + "Dog #4 (deleted); call refreshAndMergeAllObjects() before changing them, or choose another merge policy"),
        (.encodingFailed(type: "Settings", coder: "json", reason: "refused"),
         "a Settings value could not be encoded as json, so nothing was saved: refused"),
        (.decodingFailed(entity: "Person", attribute: "badge", object: "Person #3", reason: "bad colour"),
         "cannot read Person #3: the app's decode function of 'Person.badge' threw: bad colour"),
        (.userError(UserError(ErrorMessageOops.failed(code: 7))), "the transaction threw: failed(code: 7)"),
        (.stackClosed(model: "PetStore"), "the stack of model 'PetStore' was closed, so it takes no more work and nothing was done; "
            + "add the storage to a new DataStack to use the store again"),
    ]

    @Test(arguments: cases)
    func everyCaseSaysWhatHappened(error: StrataError, message: String) {
        #expect(error.description == message)
    }

    @Test func aStoreFolderThatCannotBeCreatedIsNamed() throws {
        let file = temporaryStoreURL("blocker")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: file)
        let stack = DataStack(Zoo.schemaHistory)
        #expect {
            try stack.addStorageAndWait(SQLiteStore(fileURL: file.appendingPathComponent("inner/Zoo.sqlite")))
        } throws: { error in
            guard case StrataError.fileSystem(let path, let message) = error else { return false }
            return path == file.appendingPathComponent("inner").path && message.hasPrefix("cannot create the folder: ")
        }
    }
}

/// An error of the app's own, for messages.
enum ErrorMessageOops: Error {
    case failed(code: Int)
}
