import Foundation
import StrataTestSupport
import Testing

/// An in-memory store leaves nothing on disk: not when its stack is released, not when the process
/// exits with the stack alive, and not (after the next process's first in-memory store) when the
/// process was killed.
@Suite("In-memory stores leave nothing", .timeLimit(.minutes(5)))
struct InMemoryLeftoversTests {
    /// A private temporary folder for the children, so that what they leave can be listed exactly.
    private func withChildTemporaryFolder(_ body: (URL) throws -> Void) throws {
        let folder = TestFolders.url("strata-children")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    private func contents(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func aProcessThatExitsWithAStackAliveLeavesNothing() throws {
        try withChildTemporaryFolder { (folder: URL) throws in
            #expect(try CrashChild.run(["in-memory", "exit"], temporaryFolder: folder) == "ready")
            #expect(try contents(folder) == [])
        }
    }

    @Test func whatAKilledProcessLeftIsDeletedByTheNextOne() throws {
        try withChildTemporaryFolder { (folder: URL) throws in
            let child = try CrashChild.launch(["in-memory", "wait"], temporaryFolder: folder)
            var printed = ""
            while !printed.contains("ready"), case let data = child.output.fileHandleForReading.availableData, !data.isEmpty {
                printed += String(decoding: data, as: UTF8.self)
            }
            #expect(printed.contains("ready"))
            // While it runs, its store is in its own locked folder.
            let running = try contents(folder)
            #expect(running.count == 1 && running[0].hasPrefix("strata-memory-\(child.process.processIdentifier)-"))
            kill(child.process.processIdentifier, SIGKILL)
            child.process.waitUntilExit()
            #expect(try contents(folder) == running)
            // The next process's first in-memory store deletes it, then leaves nothing itself.
            #expect(try CrashChild.run(["in-memory", "exit"], temporaryFolder: folder) == "ready")
            #expect(try contents(folder) == [])
        }
    }

    @Test func aRunningProcessesFolderIsLeftAlone() throws {
        try withChildTemporaryFolder { (folder: URL) throws in
            let child = try CrashChild.launch(["in-memory", "wait"], temporaryFolder: folder)
            defer {
                kill(child.process.processIdentifier, SIGKILL)
                child.process.waitUntilExit()
            }
            var printed = ""
            while !printed.contains("ready"), case let data = child.output.fileHandleForReading.availableData, !data.isEmpty {
                printed += String(decoding: data, as: UTF8.self)
            }
            let running = try contents(folder)
            #expect(try CrashChild.run(["in-memory", "exit"], temporaryFolder: folder) == "ready")
            #expect(try contents(folder) == running)
        }
    }
}
