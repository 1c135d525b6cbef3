import Foundation
import StrataTestSupport
import Testing

/// Several app processes sharing one PostgreSQL database: monitors follow the others' commits
/// (by notification, and by polling for engines without `NOTIFY`), and concurrent `x += 1`
/// transactions lose no update and their objects' ids never collide.
@Suite("Other app servers", Postgres.available, .timeLimit(.minutes(5)))
struct OtherServerTests {
    @Test func aMonitorFollowsAnotherServersCommitsByNotification() async throws {
        try await OtherProcessTests.expectMonitorFollowsCommits(store: Postgres.newDatabaseURL("watch"))
    }

    @Test func aMonitorFollowsAnotherServersCommitsByPolling() async throws {
        try await OtherProcessTests.expectMonitorFollowsCommits(store: Postgres.newDatabaseURL("poll"), environment: ["STRATA_CHILD_POLL": "1"])
    }

    @Test func eightProcessesAddingOneLoseNoUpdateAndShareNoId() async throws {
        try await Self.expectExactTotal(store: Postgres.newDatabaseURL("increment"))
    }

    /// Writers side by side: eight processes of eight concurrent tasks each, all adding to one row.
    @Test func eightProcessesOfEightTasksAddingOneLoseNoUpdate() async throws {
        try await Self.expectExactTotal(store: Postgres.newDatabaseURL("increment-tasks"), times: 4, tasks: 8)
    }

    /// Eight children add 1 to the same balance `times` times from each of `tasks` tasks, writing
    /// an entry each time.
    static func expectExactTotal(store: String, times: Int = 25, tasks: Int = 1) async throws {
        try await HeavyTests.oneAtATime {
            #expect(try await CrashChild.run(["prepare", store]) == "prepared")
            let errors = TestFolders.url("strata-increment").appendingPathComponent("errors.txt")
            try FileManager.default.createDirectory(at: errors.deletingLastPathComponent(), withIntermediateDirectories: true)
            let children = try (0..<8).map { _ in try CrashChild.launch(["increment", store, "\(times)", "\(tasks)"], errors: errors) }
            for child in children {
                let printed = await CrashChild.readToEnd(child)
                let failures = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
                #expect(printed == "done \(times * tasks)\n", "a child failed: \(failures)")
            }
            let total = 8 * times * tasks
            #expect(try await CrashChild.run(["totals", store]) == "\(total) \(total) \(total)")
        }
    }
}

/// The same eight processes on one SQLite file.
@Suite("Other processes writing", .timeLimit(.minutes(5)))
struct OtherProcessWriterTests {
    @Test func eightProcessesAddingOneLoseNoUpdateAndShareNoId() async throws {
        let folder = TestFolders.url("strata-increment-file")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await OtherServerTests.expectExactTotal(store: folder.appendingPathComponent("Ledger.sqlite").path)
    }
}
