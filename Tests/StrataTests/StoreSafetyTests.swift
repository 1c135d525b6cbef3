import Foundation
import Testing
@testable import Strata

/// Opening a file a stack cannot use changes nothing in it, and every refusal names the file.
@Suite("Opening files safely")
struct StoreSafetyTests {
    /// A SQLite database another program wrote, in its default (rollback-journal) mode.
    private func foreignDatabase() throws -> URL {
        let url = temporaryStoreURL("foreign.sqlite")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let connection = try SQLiteConnection(path: url.path, readOnly: false)
        try connection.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        try connection.execute("INSERT INTO notes (body) VALUES ('keep me')")
        return url
    }

    private func files(beside url: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path).sorted()
    }

    @Test func aForeignDatabaseIsRefusedByteForByte() async throws {
        let url = try foreignDatabase()
        let before = try Data(contentsOf: url)
        let siblings = try files(beside: url)
        await #expect(throws: StrataError.notAStore(file: url.path, reason: "it is a SQLite database, but not one Strata created")) {
            try await DataStack(Zoo.schemaHistory).addStorage(SQLiteStore(fileURL: url))
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(try files(beside: url) == siblings)
        // Not even a migration forecast or a recreate option touches it.
        #expect(throws: StrataError.notAStore(file: url.path, reason: "it is a SQLite database, but not one Strata created")) {
            try DataStack(Zoo.schemaHistory).requiredMigrations(for: SQLiteStore(fileURL: url))
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aStoreOfAnotherModelKeepsItsBytes() async throws {
        let url = temporaryStoreURL()
        try DataStack(Zoo.schemaHistory).addStorageAndWait(SQLiteStore(fileURL: url))
        _ = try StoreOpener.rows(SQLiteConnection(path: url.path, readOnly: false), "PRAGMA wal_checkpoint(TRUNCATE)")
        let before = try Data(contentsOf: url)
        let farm = SchemaHistory(model: "Farm", versions: [Zoo.v1], migrationChain: ["V1"], current: "V1",
                                 entityTypes: [Person.self, Animal.self, Dog.self, Cat.self])
        await #expect(throws: StrataError.differentModel(file: url.path, storeModel: "Zoo", expectedModel: "Farm")) {
            try await DataStack(farm).addStorage(SQLiteStore(fileURL: url))
        }
        #expect(try Data(contentsOf: url) == before)
    }

    /// A store of the Zoo model with its log folded into the file, ready to be damaged.
    private func zooStore() throws -> URL {
        let url = temporaryStoreURL()
        try DataStack(Zoo.schemaHistory).addStorageAndWait(SQLiteStore(fileURL: url))
        _ = try StoreOpener.rows(SQLiteConnection(path: url.path, readOnly: false), "PRAGMA wal_checkpoint(TRUNCATE)")
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        return url
    }

    @Test(arguments: [("garbage", "the file is not a SQLite database (file is not a database)"),
                      ("header", "the file is damaged (database disk image is malformed)"),
                      ("empty page", "the file is damaged (database disk image is malformed)")])
    func aDamagedFileIsRefusedByteForByte(damage: String, reason expected: String) async throws {
        let url = try zooStore()
        let whole = try Data(contentsOf: url)
        let damaged: Data = switch damage {
        case "garbage": Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        case "header": whole.prefix(100)
        default: whole.prefix(100) + Data(repeating: 0, count: 4096 - 100)
        }
        try damaged.write(to: url)
        await #expect {
            try await DataStack(Zoo.schemaHistory).addStorage(SQLiteStore(fileURL: url))
        } throws: { error in
            guard case StrataError.notAStore(let file, let reason) = error else { return false }
            return file == url.path && reason == expected
        }
        #expect(try Data(contentsOf: url) == damaged)
    }

    @Test func aStoreWhoseLockWasAlteredIsRefusedByteForByte() async throws {
        let url = try zooStore()
        let connection = try SQLiteConnection(path: url.path, readOnly: false)
        try connection.execute("PRAGMA journal_mode = DELETE")
        try connection.execute("UPDATE strata_metadata SET value = 'Person:1,2,3,4' WHERE key = 'lock'")
        let before = try Data(contentsOf: url)
        await #expect(throws: StrataError.unknownStoreVersion(file: url.path, model: "Zoo", storeVersion: "V1")) {
            try await DataStack(Zoo.schemaHistory).addStorage(SQLiteStore(fileURL: url))
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aFileSQLiteCannotOpenIsNamed() async throws {
        // A folder where the store should be: SQLite cannot open it.
        let url = temporaryStoreURL("Folder.sqlite")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        await #expect(throws: StrataError.cannotOpenStore(file: url.path, reason: "reading it failed (disk I/O error); "
                                                          + "it may be a folder, or its disk may be failing")) {
            try await DataStack(Zoo.schemaHistory).addStorage(SQLiteStore(fileURL: url))
        }
    }
}

/// What a commit waits for, per storage.
@Suite("Durability")
struct DurabilityTests {
    /// SQLite's `synchronous` setting on a stack's writer connection (0 off, 1 normal, 2 full).
    private func synchronous(_ stack: DataStack) throws -> [[SQLValue]] {
        try stack.writer.first.queue.sync { () throws(StrataError) -> [[SQLValue]] in
            try StoreOpener.rows(stack.writer.first.connection(for: stack.core.storages[0]), "PRAGMA synchronous")
        }
    }

    @Test func fullDurabilityWaitsForTheDisk() throws {
        let stack = DataStack(Zoo.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: temporaryStoreURL(), durability: .full))
        #expect(try synchronous(stack) == [[.integer(2)]])
    }

    @Test func theDefaultIsNormal() throws {
        let stack = DataStack(Zoo.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: temporaryStoreURL()))
        #expect(try synchronous(stack) == [[.integer(1)]])
    }
}

/// A store another process holds locked.
@Suite("A busy store")
@MainActor
struct BusyStoreTests {
    @Test func aTransactionWaitsItsTimeoutThenFailsAndReadsGoOn() async throws {
        let url = temporaryStoreURL()
        let stack = DataStack(Zoo.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: url, busyTimeout: .milliseconds(50)))
        try await stack.perform { transaction in transaction.create(Into<Person>()).name = "Ann" }
        // Another process's writer, as SQLite sees it: a connection of its own holding the write lock.
        let other = try SQLiteConnection(path: url.path, readOnly: false)
        try other.execute("BEGIN IMMEDIATE")
        await #expect(throws: StrataError.storeBusy(file: url.path, milliseconds: 50)) {
            try await stack.perform { transaction in transaction.create(Into<Person>()).name = "Bob" }
        }
        #expect(try stack.fetchCount(From<Person>()) == 1)
        try other.execute("ROLLBACK")
        try await stack.perform { transaction in transaction.create(Into<Person>()).name = "Bob" }
        #expect(try stack.fetchCount(From<Person>()) == 2)
    }
}
