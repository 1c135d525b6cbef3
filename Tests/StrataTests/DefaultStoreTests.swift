import Foundation
import StrataTestSupport
import Testing
@testable import Strata

/// Setting up as CoreStore does: `SQLiteStore()` in the default folder, and a migration chain
/// checked against the schema history when the stack is created.
@Suite("Default store and chain checks")
struct DefaultStoreTests {
    @Test func theDefaultStoreIsTheAppsFileInTheDefaultFolder() {
        let name = ProcessInfo.processInfo.processName
        #expect(SQLiteStore().fileURL == SQLiteStore.defaultFileURL)
        #expect(SQLiteStore.defaultFileURL == SQLiteStore.defaultDirectory.appendingPathComponent(name + ".sqlite"))
        #expect(SQLiteStore.defaultDirectory.lastPathComponent == name)
        #expect(SQLiteStore(fileName: "Other.sqlite").fileURL.deletingLastPathComponent() == SQLiteStore.defaultDirectory)
    }

    @Test(.sqliteOnly("a trap, checked in a child process (which would start a server of its own); it comes before any SQL"))
    func theDefaultStoreOpensUnderTheUsersDataFolder() async {
        await #expect(processExitsWith: .success) {
            let home = TestFolders.url("strata-home")
            setenv("XDG_DATA_HOME", home.path, 1)
            setenv("HOME", home.path, 1)
            let stack = DataStack(Zoo.schemaHistory)
            try stack.addStorageAndWait(SQLiteStore())
            let file = SQLiteStore.defaultFileURL
            guard file.path.hasPrefix(home.path), FileManager.default.fileExists(atPath: file.path) else { exit(1) }
        }
    }

    @Test(.sqliteOnly("a trap, checked in a child process (which would start a server of its own); it comes before any SQL"))
    func aChainNamingAnUnknownVersionStopsTheStack() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let history = SchemaHistory(model: "Zoo", versions: [Zoo.v1], migrationChain: ["V1", "V2"], current: "V1",
                                        entityTypes: [Person.self, Animal.self, Dog.self, Cat.self])
            _ = DataStack(history)
        }
        let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(printed.contains("Strata: the migration chain of 'Zoo' names version 'V2', which its schema history does not have (versions: V1)"))
    }

    /// CoreStore's spellings: `addStorageAndWait()` adds the default store, and a process-wide
    /// default stack serves code written against `CoreStoreDefaults.dataStack`.
    @Test(.sqliteOnly("a trap, checked in a child process (which would start a server of its own); it comes before any SQL"))
    func theDefaultStackAndStorageSpellings() async {
        await #expect(processExitsWith: .success) {
            let home = TestFolders.url("strata-home")
            setenv("XDG_DATA_HOME", home.path, 1)
            setenv("HOME", home.path, 1)
            StrataDefaults.dataStack = DataStack(Zoo.schemaHistory)
            let store = try StrataDefaults.dataStack.addStorageAndWait()
            try await StrataDefaults.dataStack.perform { t in t.create(Into<Person>()).name = "Ann" }
            let count = try await MainActor.run { try StrataDefaults.dataStack.fetchCount(From<Person>()) }
            guard store.fileURL == SQLiteStore.defaultFileURL, count == 1,
                  FileManager.default.fileExists(atPath: store.fileURL.path) else { exit(1) }
        }
    }

    @Test(.sqliteOnly("a trap, checked in a child process (which would start a server of its own); it comes before any SQL"))
    func readingTheDefaultStackBeforeSettingItTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = StrataDefaults.dataStack
        }
        let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(printed.contains("Strata: StrataDefaults.dataStack was read before it was set; "
                                 + "set it at launch: StrataDefaults.dataStack = DataStack(MyModel.schemaHistory)"))
    }
}
