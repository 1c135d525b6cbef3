import Dispatch

/// A read-only context on its own WAL reader connections, for work off the main actor: fetch
/// objects, and return what they hold as snapshots or IDs. Several run at once, and none waits for
/// a transaction. Everything it reads of a store reflects one committed state: the state when it
/// first reads that store.
public final class ReadTransaction: FetchingContext {}

extension DataStack {
    /// Runs `body` in a new read context on a background thread and returns its `Sendable` result.
    /// The whole body reads one snapshot of each store; the context is discarded after, and its
    /// connections (with their prepared statements) go back to a small pool for the next read.
    /// Throws a ``StrataError``, or the error `body` threw, unchanged.
    public func read<T: Sendable>(_ body: @escaping @Sendable (ReadTransaction) throws -> T) async throws -> T {
        let core = self.core
        try core.lifecycle.admit()
        defer { core.lifecycle.finish() }
        let meter = InstrumentedWork.read(instrumentation, .readContext)
        let result: Result<T, StrataError> = await withCheckedContinuation { continuation in
            // A queue of its own, not a global one: the body waits for the server, and on Linux
            // the global queues are the few threads Swift's tasks run on too.
            DispatchQueue(label: "strata.read", qos: .userInitiated).async {
                let context = ObjectContext(core: core, kind: .reader, openConnection: { handle throws(StrataError) in
                    try core.readers.take(handle)
                }, openReader: { handle throws(StrataError) in
                    try core.readers.take(handle)
                })
                let outcome: Result<T, StrataError>
                do {
                    outcome = .success(try body(ReadTransaction(context: context)))
                } catch let error as StrataError {
                    outcome = .failure(error)
                } catch {
                    outcome = .failure(.userError(UserError(error)))
                }
                // Connections go back to the pool before the caller resumes, so the next read finds them.
                core.readers.giveBack(context.releaseConnections(), closingAfter: core.idleTimeout)
                meter?.endRead(outcome)
                continuation.resume(returning: outcome)
            }
        }
        return try result.mapError(\.rethrown).get()
    }
}
