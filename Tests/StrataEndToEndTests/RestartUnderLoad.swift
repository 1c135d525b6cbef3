// Left out of builds without the PostgreSQL trait (see Package.swift).
#if PostgreSQL
import Foundation
import Strata
import StrataPostgres
import StrataTestSupport
import Synchronization
import Testing

/// Four writers of one stack, each transaction two products of one tag, while something the
/// stack depends on (the server, a pooler) is restarted once 40 transactions have been
/// acknowledged; the writers go on until 40 more are. Then checks, in `database` of `server`,
/// that nothing is half-written, that every acknowledged transaction is there, and that every
/// failure was the connection's (lost, or the server unreachable while it was away), naming
/// `address`'s server and database.
enum RestartUnderLoad {
    static func run(_ stack: DataStack, address: PostgreSQLAddress, checkingIn database: String, on server: PostgresTestServer.Running,
                    restart: @escaping @Sendable () throws -> Void) async throws {
        let progress = WritersProgress()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    var index = 0
                    while progress.acknowledgedCount < 80 {
                        index += 1
                        let tag = "w\(writer)-\(index)"
                        do {
                            try await stack.perform { transaction in
                                transaction.create(Into<Product>()).sku = tag + "a"
                                transaction.create(Into<Product>()).sku = tag + "b"
                            }
                            progress.acknowledge(tag)
                        } catch let error as StrataError {
                            progress.fail(error)
                            try await Task.sleep(for: .milliseconds(5))
                        }
                    }
                }
            }
            group.addTask {
                while progress.acknowledgedCount < 40 { try await Task.sleep(for: .milliseconds(5)) }
                try restart()
            }
            try await group.waitForAll()
        }
        let rows = try server.psql("SELECT sku FROM \"Product\"", database: database).split(separator: "\n").map(String.init)
        let tags = Dictionary(grouping: rows) { String($0.dropLast()) }
        #expect(tags.values.allSatisfy { $0.count == 2 }, "nothing half-written")
        #expect(progress.acknowledged.isSubset(of: Set(tags.keys)), "every acknowledged transaction there")
        #expect(progress.acknowledged.count >= 80)
        let lost = StrataError.connectionLost(server: address.server, database: database)
        #expect(progress.failures.allSatisfy { error in
            if case .serverUnavailable(let server, let name, _) = error { return server == address.server && name == database }
            return error == lost
        }, "\(progress.failures)")
    }
}

/// What the writers did: the tags of acknowledged transactions and the errors of failed ones.
private final class WritersProgress: Sendable {
    private let state = Mutex<(acknowledged: Set<String>, failures: [StrataError])>(([], []))

    var acknowledgedCount: Int { state.withLock { $0.acknowledged.count } }
    var acknowledged: Set<String> { state.withLock { $0.acknowledged } }
    var failures: [StrataError] { state.withLock { $0.failures } }

    func acknowledge(_ tag: String) { state.withLock { _ = $0.acknowledged.insert(tag) } }
    func fail(_ error: StrataError) { state.withLock { $0.failures.append(error) } }
}
#endif
