import Foundation
import Strata
import StrataTestSupport
import Testing

/// Durability across SIGKILL: every local change a commit acknowledged reaches the server exactly
/// once, whichever side is killed, and whenever.
@Suite struct SyncCrashTests {
    /// Where the server keeps its content: a SQLite file, or a database of the throwaway
    /// PostgreSQL server when the tests run against it.
    static func serverStore() throws -> String {
        if TestBackend.current == .postgresql {
            let server = try PostgresTestServer.shared()
            return server.url(database: try server.createDatabase("sync"))
        }
        return TestFolders.url("sync-server").appendingPathExtension("sqlite").path
    }

    /// Starts a server child on `port` (0: any); returns it and its port.
    static func startServer(_ store: String, port: Int = 0) async throws -> ((process: Process, output: Pipe), Int) {
        let child = try CrashChild.launch(["sync-server", store, String(port)])
        let printed = await CrashChild.read(child, until: "\n")
        guard let line = printed.split(separator: "\n").first(where: { $0.hasPrefix("serving ") }), let port = Int(line.dropFirst(8)) else {
            await CrashChild.kill(child)
            throw CrashChildFailure(message: "the sync server did not start: \(printed)")
        }
        return (child, port)
    }

    static func acks(_ output: String) -> [String] {
        output.split(separator: "\n").filter { $0.hasPrefix("ack ") }.map { String($0.dropFirst(4)) }
    }

    /// The marks the server holds, by name and how many times.
    static func serverMarks(_ store: String) async throws -> [String: Int] {
        let printed = try await CrashChild.run(["sync-names", store])
        var counts: [String: Int] = [:]
        for name in printed.split(separator: "\n") where name != "end" { counts[String(name), default: 0] += 1 }
        return counts
    }

    @Test func killingADeviceMidPushLosesAndRepeatsNothing() async throws {
        try await HeavyTests.oneAtATime {
            let store = try Self.serverStore()
            let (server, port) = try await Self.startServer(store)
            let url = "http://127.0.0.1:\(port)/sync"
            let device = TestFolders.url("sync-device").appendingPathExtension("sqlite").path
            var acknowledged: [String] = []
            var generator = SeededGenerator(state: 67)
            let rounds = CrashChild.rounds(default: 100)
            for round in 1...rounds {
                let child = try CrashChild.launch(["sync-device", device, url, "r\(round)"])
                let count = Int.random(in: 1...4, using: &generator)
                let printed = await CrashChild.read(child, until: "ack r\(round)-\(count)\n")
                // Killed somewhere in the exchange that follows the commit: its pull, the batch
                // being written, sent, applied or acknowledged.
                try await Task.sleep(for: .microseconds(Int.random(in: 0...6_000, using: &generator)))
                await CrashChild.kill(child)
                acknowledged += Self.acks(printed + (await CrashChild.readToEnd(child)))
            }
            #expect(try await CrashChild.run(["sync-drain", device, url]) == "drained")
            await CrashChild.kill(server)
            let marks = try await Self.serverMarks(store)
            // Each round acknowledged at least the commits it waited for.
            #expect(acknowledged.count >= rounds)
            #expect(acknowledged.filter { marks[$0] != 1 }.isEmpty, "every acknowledged mark is on the server once")
            #expect(marks.values.allSatisfy { $0 == 1 }, "no mark is on the server twice")
        }
    }

    @Test func killingTheServerLosesAndRepeatsNothing() async throws {
        try await HeavyTests.oneAtATime {
            let store = try Self.serverStore()
            var (server, port) = try await Self.startServer(store)
            let url = "http://127.0.0.1:\(port)/sync"
            let device = TestFolders.url("sync-device").appendingPathExtension("sqlite").path
            let child = try CrashChild.launch(["sync-device", device, url, "s"])
            let output = Task { await CrashChild.readToEnd(child) }
            var generator = SeededGenerator(state: 68)
            for _ in 1...CrashChild.rounds(default: 100) {
                try await Task.sleep(for: .milliseconds(Int.random(in: 5...40, using: &generator)))
                await CrashChild.kill(server)
                (server, _) = try await Self.startServer(store, port: port)
            }
            await CrashChild.kill(child)
            let acknowledged = Self.acks(await output.value)
            #expect(try await CrashChild.run(["sync-drain", device, url]) == "drained")
            await CrashChild.kill(server)
            let marks = try await Self.serverMarks(store)
            #expect(!acknowledged.isEmpty)
            #expect(acknowledged.filter { marks[$0] != 1 }.isEmpty, "every acknowledged mark is on the server once")
            #expect(marks.values.allSatisfy { $0 == 1 }, "no mark is on the server twice")
        }
    }
}

struct CrashChildFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
