import Foundation
import Observation
import Strata
import Synchronization

/// `observe PATH`: reads account A's balance of a prepared ledger store inside
/// `withObservationTracking`, printing `ready`, then, when another process's commit changes it,
/// `observed OLD NEW`: the balance read when told (the whole commit already applied) and once
/// more after the main actor's turn.
@MainActor
enum ObserveRun {
    static func observe(_ storage: any StorageInterface) async throws {
        let stack = DataStack(Ledger.schemaHistory, externalCommitCheckInterval: .milliseconds(20))
        try await stack.addStorage(storage)
        guard let account = try stack.fetchOne(From<Account>().where(\.name == "A")) else { throw LedgerError.accountsMissing }
        let before = account.balance
        let id = account.objectID
        let told = AsyncStream<Int64>.makeStream()
        withObservationTracking {
            _ = account.balance
        } onChange: {
            // Called on the main actor, where the main context applies commits: the live object
            // (the one read above) already holds the committed balance.
            MainActor.assumeIsolated { _ = told.continuation.yield(stack.fetchExisting(id)?.balance ?? -1) }
        }
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        var iterator = told.stream.makeAsyncIterator()
        guard let seen = await iterator.next() else { return }
        FileHandle.standardOutput.write(Data("observed \(before) \(seen) \(account.balance)\n".utf8))
    }
}
