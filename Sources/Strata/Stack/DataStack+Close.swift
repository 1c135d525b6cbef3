import Dispatch

extension DataStack {
    /// Closes the stack: it takes no more work, lets the work it took finish, then closes every
    /// connection it holds. Call it when the app or server shuts down, after it stopped asking for
    /// work; a SQLite store's write-ahead log is folded into the file when its last connection
    /// closes, and a server sees this stack's sessions end.
    ///
    /// From the call on, new transactions (every `perform` form and unsafe commits), read
    /// contexts and storages are refused with ``StrataError/stackClosed(model:)``. What was asked
    /// for before runs to its end: transactions, queued ones included, commit or roll back as
    /// usual and their completions run; read contexts return. Then:
    /// - every monitor stops, its `updates` sequences ending with
    ///   ``StrataError/stackClosed(model:)`` after the changes of the last commits;
    /// - every ``changes`` sequence ends;
    /// - the main context, the writers, the pooled readers, the watcher of other processes'
    ///   commits and the row-id reservations close their connections; a PostgreSQL store sends
    ///   the notification of its last commits and closes the connection it sends them on;
    /// - main-context fetches and new monitors throw ``StrataError/stackClosed(model:)``.
    ///
    /// The main context answers fetches until the work admitted before the call has finished
    /// (so observers see its commits). Objects already fetched keep the values they hold. Calling
    /// `close()` again, from anywhere, waits for the same closing. A closed stack stays closed:
    /// to use the store again, add its storage to a new `DataStack`.
    public func close() async {
        await core.lifecycle.closing { [self] in await closeEverything() }.value
    }

    /// Closes what the stack holds, once its admitted work has ended.
    private func closeEverything() async {
        main.watcher.stop()
        let main = self.main
        await MainActor.run { main.close() }
        // Connections to a server end with a round trip: not on Swift concurrency's threads.
        let core = self.core
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                core.readers.closeAll()
                for storage in core.storages { storage.rowIDs?.close() }
                done.resume()
            }
        }
        // The writers last: the last connection to a SQLite file to close folds its write-ahead
        // log into it, which a read-only connection cannot do.
        await writer.closeAllConnections()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                for storage in core.storages { storage.backend.close() }
                done.resume()
            }
        }
        core.changes.finishAll()
        log(.notice, "closed the stack of \(schemaHistory.modelName) \(schemaHistory.currentVersion.name)")
    }
}
