import Foundation
import Strata

/// `monitor PATH COUNT`: monitors the entries of a ledger store that another process writes,
/// printing `ready` once monitoring, then `seen N WHOLE` once the list holds COUNT entries or
/// more: N updates received, WHOLE 1 when every update showed whole commits only (two entries
/// each, so an even count with no commit in part) and the accounts' balances matched the entries.
@MainActor
enum MonitorRun {
    static func watch(_ storage: any StorageInterface, until count: Int) async throws {
        let stack = DataStack(Ledger.schemaHistory, externalCommitCheckInterval: .milliseconds(20))
        try await stack.addStorage(storage)
        let monitor = try stack.monitorList(From<Entry>().orderBy(.ascending(\.commit)))
        let updates = monitor.updates
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        var received = 0
        var whole = true
        for try await update in updates {
            received += 1
            let entries = monitor.objects
            var commits: [Int64: Int] = [:]
            for entry in entries { commits[entry.commit, default: 0] += 1 }
            if update.snapshot.count % 2 != 0 || commits.values.contains(where: { $0 != 2 }) { whole = false }
            let balance = try stack.fetchAll(From<Account>()).reduce(0) { $0 + $1.balance }
            if balance != 0 { whole = false }
            if update.snapshot.count >= count { break }
        }
        FileHandle.standardOutput.write(Data("seen \(received) \(whole ? 1 : 0)\n".utf8))
    }
}
