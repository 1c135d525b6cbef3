import Foundation
import StrataTestSupport
import Testing
@testable import Strata

/// A full disk, a store deleted while open, and a process out of file descriptors: each a clear
/// error naming the file, with nothing half-written.
@Suite("Bad environments")
@MainActor
struct BadEnvironmentTests {
    private func stackWithAnn(_ url: URL) async throws -> DataStack {
        let stack = DataStack(Zoo.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: url))
        try await stack.perform { transaction in transaction.create(Into<Person>()).name = "Ann" }
        return stack
    }

    /// Limits how large the stack's writer may grow the file (SQLite's `max_page_count`).
    private func limitPages(of stack: DataStack, to pages: Int64?) throws {
        try stack.perform(synchronous: { transaction in
            let connection = try transaction.context.connection(for: 0)
            let current = try StoreOpener.rows(connection, "PRAGMA page_count")[0][0]
            try connection.execute("PRAGMA max_page_count = \(pages.map(String.init) ?? current.description)")
        })
    }

    @Test func aFullDiskFailsTheCommitWholeAndNamesTheFile() async throws {
        let url = temporaryStoreURL()
        let stack = try await stackWithAnn(url)
        try limitPages(of: stack, to: nil)
        await #expect(throws: StrataError.storeFull(file: url.path)) {
            try await stack.perform { transaction in
                for index in 0..<2_000 { transaction.create(Into<Person>()).name = String(repeating: "x", count: 200) + "\(index)" }
            }
        }
        #expect(try stack.fetchCount(From<Person>()) == 1)
        let check = try SQLiteConnection(path: url.path, readOnly: true)
        #expect(try StoreOpener.rows(check, "PRAGMA integrity_check") == [[.text("ok")]])
        // Room again: the same stack commits.
        try limitPages(of: stack, to: 1 << 30)
        try await stack.perform { transaction in transaction.create(Into<Person>()).name = "Bob" }
        #expect(try stack.fetchCount(From<Person>()) == 2)
        #expect(StrataError.storeFull(file: "/s.sqlite").description == "'/s.sqlite' is full: its disk has no room left (or the store reached "
            + "its size limit), so nothing of the transaction was saved; free some space and try again")
    }

    @Test func aStoreDeletedWhileOpenRefusesWritesAndNamesTheFile() async throws {
        let url = temporaryStoreURL()
        let stack = try await stackWithAnn(url)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        await #expect(throws: StrataError.storeMoved(file: url.path)) {
            try await stack.perform { transaction in transaction.create(Into<Person>()).name = "Bob" }
        }
        #expect(StrataError.storeMoved(file: "/s.sqlite").description == "'/s.sqlite' was deleted or moved while the stack had it open, "
            + "so nothing was saved; add the storage to a new stack to create or reopen it")
        // A new stack creates the store afresh.
        let fresh = DataStack(Zoo.schemaHistory)
        try fresh.addStorageAndWait(SQLiteStore(fileURL: url))
        #expect(try fresh.fetchCount(From<Person>()) == 0)
    }

    @Test func aStoreMovedWhileOpenRefusesWrites() async throws {
        let url = temporaryStoreURL()
        let stack = try await stackWithAnn(url)
        try FileManager.default.moveItem(atPath: url.path, toPath: url.path + ".moved")
        await #expect(throws: StrataError.storeMoved(file: url.path)) {
            try await stack.perform { transaction in transaction.create(Into<Person>()).name = "Bob" }
        }
    }

    @Test func runningOutOfFileDescriptorsNamesTheFileAndTheCause() async throws {
        let url = temporaryStoreURL("Ledger.sqlite")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        // The child takes a minute (two under a sanitizer); its wait holds no shared thread.
        let output = try await CrashChild.run(["descriptors", url.path])
        #expect(output.hasPrefix("cannot open '\(url.path)': the process has too many open files ("), "\(output)")
        #expect(output.hasSuffix("; close stacks the app no longer uses, or raise the process's limit on open files"), "\(output)")
    }
}

/// A folder that cannot be written, for a new store and for an existing one: the error names the
/// file and nothing changes. Checked in a child process that runs as the user nobody when the
/// tests run as root, since permissions do not stop root.
@Suite("Read-only folders")
struct ReadOnlyFolderTests {
    private func readOnlyFolder(withStore: Bool) async throws -> URL {
        let url = temporaryStoreURL("Ledger.sqlite")
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if withStore {
            let created = try await CrashChild.run(["stacks", url.path, "1"])
            try #require(created.split(separator: " ").count == 3, "\(created)")
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        return url
    }

    @Test func aNewStoreInAReadOnlyFolderIsNamed() async throws {
        let url = try await readOnlyFolder(withStore: false)
        let output = try await CrashChild.run(["open-as-nobody", url.path])
        #expect(output == "cannot open '\(url.path)': it cannot be opened or created (unable to open database file); "
            + "check that its folder exists and can be written")
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func anExistingStoreInAReadOnlyFolderIsNamedAndUnchanged() async throws {
        let url = try await readOnlyFolder(withStore: true)
        let before = try Data(contentsOf: url)
        let output = try await CrashChild.run(["open-as-nobody", url.path])
        #expect(output == "cannot open '\(url.path)': it cannot be written (attempt to write a readonly database); "
            + "check the permissions of the file and its folder")
        #expect(try Data(contentsOf: url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) == ["Ledger.sqlite"])
    }
}
