import Foundation
import StrataTestSupport
import Testing

/// An in-memory store leaves nothing on disk: not when its stack is released, not when the process
/// exits with the stack alive, and not (after the next process's first in-memory store) when the
/// process was killed.
@Suite("In-memory stores leave nothing", .timeLimit(.minutes(5)))
struct InMemoryLeftoversTests {
    /// A private temporary folder for the children, so that what they leave can be listed exactly.
    private func withChildTemporaryFolder(_ body: (URL) async throws -> Void) async throws {
        let folder = TestFolders.url("strata-children")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder)
    }

    private func contents(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func aProcessThatExitsWithAStackAliveLeavesNothing() async throws {
        try await withChildTemporaryFolder { (folder: URL) async throws in
            #expect(try await CrashChild.run(["in-memory", "exit"], temporaryFolder: folder) == "ready")
            #expect(try contents(folder) == [])
        }
    }

    @Test func whatAKilledProcessLeftIsDeletedByTheNextOne() async throws {
        try await withChildTemporaryFolder { (folder: URL) async throws in
            let child = try CrashChild.launch(["in-memory", "wait"], temporaryFolder: folder)
            #expect(await CrashChild.read(child, until: "ready").contains("ready"))
            // While it runs, its store is in its own locked folder.
            let running = try contents(folder)
            #expect(running.count == 1 && running[0].hasPrefix("strata-memory-\(child.process.processIdentifier)-"))
            await CrashChild.kill(child)
            #expect(try contents(folder) == running)
            // The next process's first in-memory store deletes it, then leaves nothing itself.
            #expect(try await CrashChild.run(["in-memory", "exit"], temporaryFolder: folder) == "ready")
            #expect(try contents(folder) == [])
        }
    }

    @Test func aRunningProcessesFolderIsLeftAlone() async throws {
        try await withChildTemporaryFolder { (folder: URL) async throws in
            let child = try CrashChild.launch(["in-memory", "wait"], temporaryFolder: folder)
            // The waiting child is killed whatever happens (it would otherwise wait forever).
            let running: [String], printed: String, after: [String]
            do {
                _ = await CrashChild.read(child, until: "ready")
                running = try contents(folder)
                printed = try await CrashChild.run(["in-memory", "exit"], temporaryFolder: folder)
                after = try contents(folder)
            } catch {
                await CrashChild.kill(child)
                throw error
            }
            await CrashChild.kill(child)
            #expect(printed == "ready")
            #expect(after == running)
        }
    }
}
