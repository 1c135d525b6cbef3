import Foundation
import Strata

/// `increment PATH TIMES [TASKS]`: adds 1 to account A's balance TIMES times from each of TASKS
/// concurrent tasks, one transaction each, and writes an entry in each, so that several processes
/// doing it at once show lost updates (a total short of the sum) and colliding object ids (a
/// failed commit). Prints `done TIMES×TASKS`.
///
/// `totals PATH`: prints "BALANCE ENTRIES DISTINCT-IDS" of account A.
@MainActor
enum IncrementRun {
    static func increment(_ storage: any StorageInterface, times: Int, tasks: Int = 1) async throws {
        let stack = DataStack(Ledger.schemaHistory)
        try await stack.addStorage(storage)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    for round in 1...times {
                        try await stack.perform { transaction in
                            guard let account = try transaction.fetchOne(From<Account>().where(\.name == "A")) else {
                                throw LedgerError.accountsMissing
                            }
                            account.balance += 1
                            let entry = transaction.create(Into<Entry>())
                            entry.commit = Int64(round)
                            entry.amount = 1
                            entry.account = account
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        say("done", times * tasks)
    }

    static func totals(_ storage: any StorageInterface) async throws {
        let stack = DataStack(Ledger.schemaHistory)
        try await stack.addStorage(storage)
        guard let account = try stack.fetchOne(From<Account>().where(\.name == "A")) else { throw LedgerError.accountsMissing }
        let entries = try stack.fetchAll(From<Entry>())
        say(account.balance, entries.count, Set(entries.map { $0.objectID(as: Entry.self) }).count)
    }

    /// Creates accounts A and B in an empty store.
    static func prepare(_ storage: any StorageInterface) async throws {
        let stack = DataStack(Ledger.schemaHistory)
        try await stack.addStorage(storage)
        try await stack.perform { transaction in
            for name in ["A", "B"] { transaction.create(Into<Account>()).name = name }
        }
        say("prepared")
    }
}
