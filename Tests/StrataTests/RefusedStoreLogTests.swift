import Foundation
import Testing
@testable import Strata

/// A store the stack refuses keeps every byte of its file and of the `-wal` and `-shm` beside it,
/// as another process that still has it open left them.
@Suite("Refused stores with a log")
@MainActor
struct RefusedStoreLogTests {
    private static let suffixes = ["", "-wal", "-shm"]

    /// A Zoo store with commits still in its `-wal`, as a copy taken while its stack is open.
    private func storeWithLog() async throws -> URL {
        let live = temporaryStoreURL("Live.sqlite")
        let stack = DataStack(Zoo.schemaHistory, externalCommitCheckInterval: nil)
        try stack.addStorageAndWait(SQLiteStore(fileURL: live))
        try await addPeople(["Ann", "Bob", "Cleo"], to: stack)
        let copy = temporaryStoreURL()
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        for suffix in Self.suffixes { try FileManager.default.copyItem(atPath: live.path + suffix, toPath: copy.path + suffix) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy.path + "-wal")).count > 0)
        return copy
    }

    /// Each of the three files' bytes, nil for one that does not exist.
    private func contents(_ url: URL) -> [Data?] {
        Self.suffixes.map { FileManager.default.contents(atPath: url.path + $0) }
    }

    private func expectRefusal(_ url: URL, _ expected: StrataError, history: SchemaHistory = Zoo.schemaHistory,
                               synchronous: Bool = false) async {
        let before = contents(url)
        if synchronous {
            #expect(throws: expected) { try DataStack(history).addStorageAndWait(SQLiteStore(fileURL: url)) }
        } else {
            await #expect(throws: expected) { try await DataStack(history).addStorage(SQLiteStore(fileURL: url)) }
        }
        #expect(throws: expected) { try DataStack(history).requiredMigrations(for: SQLiteStore(fileURL: url)) }
        let after = contents(url)
        #expect(after == before, "\(url.lastPathComponent): the refused store's files changed")
    }

    @Test func textWrittenOverAStoreWhoseLogRemainedIsRefusedByteForByte() async throws {
        let url = try await storeWithLog()
        try Data(String(repeating: "not a store\n", count: 40).utf8).write(to: url)
        await expectRefusal(url, .notAStore(file: url.path, reason: "the file is not a SQLite database (file is not a database)"))
    }

    @Test func anOlderStoreARefusedSynchronousOpenCannotMigrateKeepsItsLog() async throws {
        let url = try await storeWithLog()
        let newer = StoreTests.history(versions: [Zoo.v1, StoreTests.v2], current: "V2")
        let before = contents(url)
        #expect(throws: StrataError.migrationRequired(file: url.path, storeVersion: "V1", currentVersion: "V2")) {
            try DataStack(newer).addStorageAndWait(SQLiteStore(fileURL: url))
        }
        #expect(contents(url) == before)
    }

    @Test func aStoreOfAnotherModelKeepsItsLog() async throws {
        let url = try await storeWithLog()
        await expectRefusal(url, .differentModel(file: url.path, storeModel: "Zoo", expectedModel: "Farm"),
                            history: StoreTests.history(model: "Farm"))
    }

    @Test func aNewerStoreKeepsItsLog() async throws {
        let url = try await storeWithLog()
        await expectRefusal(url, .newerStoreVersion(file: url.path, storeVersion: "V1", currentVersion: "V2"),
                            history: StoreTests.history(versions: [StoreTests.v2], current: "V2"), synchronous: true)
    }

    @Test func aStoreWithAnUnknownLockKeepsItsLog() async throws {
        let url = try await storeWithLog()
        let changed = ModelVersion("V1", entities: Zoo.v1.entities, versionLock: ["Person": [7, 7, 7, 7]])
        await expectRefusal(url, .unknownStoreVersion(file: url.path, model: "Zoo", storeVersion: "V1"),
                            history: StoreTests.history(versions: [changed, StoreTests.v2], current: "V2"))
    }

    @Test func aLogWithoutItsIndexIsReadFromACopy() async throws {
        let url = try await storeWithLog()
        try FileManager.default.removeItem(atPath: url.path + "-shm")
        await expectRefusal(url, .differentModel(file: url.path, storeModel: "Zoo", expectedModel: "Farm"),
                            history: StoreTests.history(model: "Farm"))
        // And the same files open for the model they belong to, with the commits of the log.
        let stack = DataStack(Zoo.schemaHistory, externalCommitCheckInterval: nil)
        try stack.addStorageAndWait(SQLiteStore(fileURL: url))
        #expect(try await stack.read { try $0.fetchCount(From<Person>()) } == 3)
    }

    /// An index no reader can trust (here, garbage) is not trusted: the store is refused byte for
    /// byte, or opened with every commit of its log. (An index a killed writer left that SQLite
    /// answers with "locking protocol" is read from a copy instead; `MigrationCrashTests` meets it.)
    @Test func aLogBesideAnIndexNoReaderCanTrustKeepsEveryCommit() async throws {
        let url = try await storeWithLog()
        try Data(repeating: 0xFF, count: 32_768).write(to: URL(fileURLWithPath: url.path + "-shm"))
        await expectRefusal(url, .differentModel(file: url.path, storeModel: "Zoo", expectedModel: "Farm"),
                            history: StoreTests.history(model: "Farm"))
        let stack = DataStack(Zoo.schemaHistory, externalCommitCheckInterval: nil)
        try stack.addStorageAndWait(SQLiteStore(fileURL: url))
        #expect(try await stack.read { try $0.fetchCount(From<Person>()) } == 3)
    }

    @Test func aClosedStoreIsProbedWithoutCreatingALog() async throws {
        let url = temporaryStoreURL()
        try DataStack(Zoo.schemaHistory).addStorageAndWait(SQLiteStore(fileURL: url))
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
        await expectRefusal(url, .differentModel(file: url.path, storeModel: "Zoo", expectedModel: "Farm"),
                            history: StoreTests.history(model: "Farm"))
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: url.path + "-shm"))
    }
}
