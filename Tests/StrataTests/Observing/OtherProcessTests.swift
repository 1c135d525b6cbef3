import Foundation
import StrataTestSupport
import Testing

/// A monitor in one process follows the commits another process makes: a child monitors a
/// ledger store while a second child commits to it, and every update it gets shows whole commits.
@Suite("Other processes", .timeLimit(.minutes(5)))
struct OtherProcessTests {
    @Test func aMonitorFollowsAnotherProcessesCommits() async throws {
        let folder = TestFolders.url("strata-watch")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.expectMonitorFollowsCommits(store: folder.appendingPathComponent("Ledger.sqlite").path)
    }

    /// A child tracking an object with `withObservationTracking` is told when another process
    /// commits a change to it, and reads the committed value when told.
    @Test func anObservedObjectFollowsAnotherProcessesCommit() async throws {
        let folder = TestFolders.url("strata-observe")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("Ledger.sqlite").path
        #expect(try await CrashChild.run(["prepare", store]) == "prepared")
        let observer = try CrashChild.launch(["observe", store])
        var printed = await CrashChild.read(observer, until: "ready")
        #expect(try await CrashChild.run(["increment", store, "1"]) == "done 1")
        printed += await CrashChild.readToEnd(observer)
        #expect(printed == "ready\nobserved 0 1 1\n")
    }

    /// Runs a monitoring child and a committing child on `store` (a file or a database URL) and
    /// expects the monitor to have seen 200 entries, in whole commits.
    static func expectMonitorFollowsCommits(store: String, environment: [String: String] = [:]) async throws {
        try await HeavyTests.oneAtATime {
            let watcher = try CrashChild.launch(["monitor", store, "200"], environment: environment)
            var printed = await CrashChild.read(watcher, until: "ready")
            #expect(printed.contains("ready"))
            let writer = try CrashChild.launch(["commit", store], environment: environment)
            printed += await CrashChild.readToEnd(watcher)
            await CrashChild.kill(writer)
            let seen = printed.split(separator: "\n").first { $0.hasPrefix("seen ") }?.split(separator: " ") ?? []
            #expect(seen.count == 3, "the monitor printed: \(printed)")
            guard seen.count == 3 else { return }
            #expect((Int(seen[1]) ?? 0) > 0)
            #expect(seen[2] == "1", "an update showed a commit in part")
        }
    }
}
