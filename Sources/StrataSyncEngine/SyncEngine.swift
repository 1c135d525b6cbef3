import Foundation
import Strata
import StrataSyncCore
import Synchronization

/// The part of sync that a device and a server share, over one storage of a stack: every commit
/// to the storage stamps what it changed and records it (``CommitHook``), and other nodes' changes
/// are merged by the rules of ``SyncedObject`` and applied as ordinary commits.
///
/// A device records its changes as pending, for its next push; a server gives each changed
/// object the next sequence number of its log, which pulls read in order.
package final class SyncEngine: CommitHook {
    /// What the node is.
    package enum Role: Sendable {
        /// A device: its changes wait to be pushed.
        case client
        /// The server: its changes are numbered for pulls.
        case server
    }

    package let stack: DataStack
    package let configuration: String
    package let role: Role
    /// The node's ID: a device's client ID, or the server's.
    package let node: String
    let model: SyncModel
    private let clock: Mutex<HybridLogicalClock>
    /// Called after each commit that recorded a change. The closure sits in a struct: a bare
    /// function value in a `Mutex` is converted to and from the lock's generic form whenever a
    /// `withLock` body touches it, and each conversion wraps it in one more thunk, so that it was
    /// called through a chain as long as the commits made so far.
    private let committed = Mutex<CommitAction?>(nil)

    private struct CommitAction: Sendable {
        let run: @Sendable () -> Void
    }
    /// Whether the commit running now recorded something (one commit runs at a time per lane;
    /// set inside the commit, read after it).
    private let recorded = Atomic(false)
    /// Whether commits go unrecorded for now (the content is being removed).
    let suspended = Atomic(false)
    private let randomness = Mutex(IDRandomness())

    /// An engine over the storage of `configuration` in `stack`, as `node`. Call ``start()`` to
    /// create its tables and hook it into the storage's commits.
    package init(stack: DataStack, configuration: String = "Default", role: Role, node: String) {
        self.stack = stack
        self.configuration = configuration
        self.role = role
        self.node = node
        self.model = SyncModel(shapes: stack.syncShapes)
        self.clock = Mutex(HybridLogicalClock(node: node))
    }

    /// Creates the engine's tables, records every object stored before sync started, and hooks
    /// the engine into the storage's commits.
    package func start() async throws {
        try await createTables()
        try await upgradeRecords()
        try stack.installCommitHook(self, configuration: configuration)
        try await adoptUnrecordedObjects()
    }

    /// Creates the engine's tables, when the storage lacks them.
    package func createTables() async throws {
        let dialect = stack.syncDialect(configuration: configuration) ?? .sqlite
        let configuration = self.configuration
        let role = self.role
        try await stack.perform { transaction in
            let connection = try transaction.syncConnection(configuration: configuration)
            for sql in SyncTables.create(dialect, role: role) { try connection.execute(sql) }
        }
    }

    /// Unhooks the engine from the storage's commits.
    package func stop() {
        stack.removeCommitHook(self)
    }

    /// Runs `action` after every commit that recorded a change (replacing the one given before).
    package func onCommit(_ action: (@Sendable () -> Void)?) {
        committed.withLock { $0 = action.map(CommitAction.init) }
    }

    /// A new global ID for an object created now.
    func makeID() -> GlobalID {
        randomness.withLock { GlobalID.make(milliseconds: Self.wallClock, using: &$0) }
    }

    /// A new timestamp of this node's clock.
    func stamp() -> SyncTimestamp {
        clock.withLock { $0.stamp(wallClock: Self.wallClock) }
    }

    /// Moves the clock past a timestamp another node made.
    package func receive(_ remote: SyncTimestamp) {
        clock.withLock { $0.receive(remote, wallClock: Self.wallClock) }
    }

    /// The latest timestamp this node's clock gave or received.
    package var latestStamp: SyncTimestamp {
        clock.withLock { $0.latest }
    }

    static var wallClock: Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    // MARK: CommitHook

    package func willCommit(_ changes: [HookedChange], on connection: any DatabaseConnection) throws(StrataError) {
        guard !suspended.load(ordering: .sequentiallyConsistent) else { return }
        if try record(changes, on: connection) { recorded.store(true, ordering: .relaxed) }
    }

    package func didCommit() {
        guard recorded.exchange(false, ordering: .relaxed) else { return }
        committed.withLock { $0 }?.run()
    }
}
