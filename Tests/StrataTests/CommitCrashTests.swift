import Foundation
import StrataTestSupport
import Testing

/// What a transaction acknowledged survives SIGKILL, whole: a child process commits numbered
/// ledger transactions through every transaction API and prints each acknowledged one; the test
/// kills it at a random moment and checks the store. `STRATA_CRASH_ROUNDS` sets the rounds
/// (`Scripts/crash-test.sh` runs hundreds).
@Suite("Commits killed midway")
struct CommitCrashTests {
    static let rounds = CrashChild.rounds(default: 12)

    @Test func everyAcknowledgedCommitIsThereWholeAndNoOtherIsThereInPart() async throws {
        try await HeavyTests.oneAtATime {
            let folder = TestFolders.url("strata-ledger")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = folder.appendingPathComponent("Ledger.sqlite").path
            var generator = SystemRandomNumberGenerator()
            var acknowledgedSoFar: Int64 = 0
            for round in 0..<Self.rounds {
                // Each round goes on from the store the previous kill left behind. Most rounds wait for
                // the first acknowledgement, so kills land while commits are flowing however slowly the
                // child starts; every fourth kills at once, while the store may still be opening.
                let child = try CrashChild.launch(["commit", store], errors: folder.appendingPathComponent("errors.txt"))
                var printed = round % 4 != 0 ? await CrashChild.read(child, until: "ack ") : ""
                try await Task.sleep(for: .microseconds(Int.random(in: 0...300_000, using: &generator)))
                await CrashChild.kill(child)
                printed += await CrashChild.readToEnd(child)
                let acknowledged = printed.split(separator: "\n").compactMap { $0.hasPrefix("ack ") ? Int64($0.dropFirst(4)) : nil }.max()
                    ?? acknowledgedSoFar
                let state = try await CrashChild.run(["check-ledger", store]).split(separator: " ").map(String.init)
                #expect(state.count == 4 && state[0] == "ok", "round \(round): \(state)")
                guard state.count == 4, let last = Int64(state[2]) else { continue }
                // Acknowledged means there; at most the one commit in flight may also be there; all of them whole.
                #expect(last >= acknowledged && last <= acknowledged + 1, "round \(round): acknowledged \(acknowledged), stored \(last)")
                #expect(state[3] == "1", "round \(round): a commit is there in part: \(state)")
                acknowledgedSoFar = last
            }
            let errors = (try? String(contentsOf: folder.appendingPathComponent("errors.txt"), encoding: .utf8)) ?? ""
            #expect(acknowledgedSoFar > 0, "the child committed nothing; it said: \(errors)")
        }
    }
}
