import Foundation
import Strata

/// `commit PATH`: commits numbered transactions to a ledger store until it is killed, printing
/// `ack N` once transaction N is acknowledged. Transaction N moves N from account A to account B:
/// two entries, one tag naming the commit, both balances. The transaction APIs take turns.
@MainActor
enum LedgerRun {
    static func commitForever(at storage: any StorageInterface) async throws {
        let stack = DataStack(Ledger.schemaHistory)
        try await stack.addStorage(storage)
        if try stack.fetchCount(From<Account>()) == 0 {
            try await stack.perform { transaction in
                for name in ["A", "B"] { transaction.create(Into<Account>()).name = name }
            }
        }
        var number = (try stack.queryValue(From<Entry>().select(Int64.self, .maximum(\.commit))) ?? 0) + 1
        while true {
            let commit = number
            switch commit % 4 {
            case 0:
                try await stack.perform { transaction in try move(commit, in: transaction) }
            case 1:
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    stack.perform(asynchronous: { transaction in try move(commit, in: transaction) },
                                  success: { continuation.resume() }, failure: { continuation.resume(throwing: $0) })
                }
            case 2:
                try stack.perform(synchronous: { transaction in try move(commit, in: transaction) })
            default:
                let transaction = stack.beginUnsafe()
                try move(commit, in: transaction)
                try transaction.commit()
            }
            // Written straight to the file descriptor: nothing buffered is lost when the parent kills us.
            FileHandle.standardOutput.write(Data("ack \(commit)\n".utf8))
            number += 1
        }
    }

    /// The work of commit `number`, the same through every API.
    nonisolated static func move(_ number: Int64, in transaction: BaseDataTransaction) throws {
        let accounts = try transaction.fetchAll(From<Account>().orderBy(.ascending(\.name)))
        guard accounts.count == 2 else { throw LedgerError.accountsMissing }
        let tag = transaction.create(Into<Tag>())
        tag.label = "commit \(number)"
        for (account, amount) in zip(accounts, [number, -number]) {
            let entry = transaction.create(Into<Entry>())
            entry.commit = number
            entry.amount = amount
            entry.account = account
            entry.tags = [tag]
            account.balance += amount
        }
    }
}

enum LedgerError: Error {
    case accountsMissing
}
