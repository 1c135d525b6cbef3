import Dispatch
import Foundation

extension DataStack {
    /// A transaction context on a writer lane, writing through the lane's connections.
    func writerContext(on lane: Writer.Lane) -> ObjectContext {
        let context = ObjectContext(core: core, kind: .transaction, openConnection: { handle throws(StrataError) in
            try lane.connection(for: handle)
        }, openReader: { handle throws(StrataError) in
            try handle.backend.reader()
        })
        context.readsUnderWriteLock = true
        return context
    }

    /// Runs a transaction body on a writer lane: commit on return, roll back on throw. A
    /// serialization failure or deadlock rolls back and runs the body again, on a fresh
    /// transaction, up to ``conflictAttempts`` times in all.
    /// `tally` counts the runs and the conflicts met.
    func runTransaction<T, Transaction: BaseDataTransaction>(on lane: Writer.Lane, _ make: (ObjectContext) -> Transaction,
                                                            _ body: (Transaction) throws -> T,
                                                            tally: inout TransactionTally) -> Result<T, StrataError> {
        var attempt = 1
        var importCollisions = 0
        while true {
            tally.attempts = attempt + importCollisions
            let (result, importCollided) = runAttempt(on: lane, make, body, locking: attempt > Self.optimisticAttempts)
            guard case .failure(let error) = result else { return result }
            if importCollided, importCollisions < Self.importCollisionAttempts {
                // Another writer created objects this transaction's unique import was creating:
                // run again, and find them.
                importCollisions += 1
                log(.notice, "a unique import met another writer's new objects (\(error)) and runs again")
                Self.backOff(after: importCollisions)
                continue
            }
            guard let conflict = error.conflict else { return result }
            tally.conflicts += 1
            guard attempt < Self.conflictAttempts else {
                return .failure(.transactionConflict(code: conflict.code, message: conflict.message, attempts: attempt))
            }
            log(.notice, "a transaction met a concurrent one (SQLSTATE \(conflict.code)) and runs again: attempt \(attempt + 1)")
            Self.backOff(after: attempt)
            attempt += 1
        }
    }

    /// How many times a transaction whose unique import collided with another writer's runs
    /// again (on a server whose writers run side by side); a collision that outlasts them (two
    /// objects of one transaction with one ID) is reported as the uniqueness violation it is.
    public static let importCollisionAttempts = 3

    /// Waits a random while before a transaction runs again after a conflict, up to twice as
    /// long after each (1, 2, 4, ... up to 64 milliseconds), so that writers that collided do
    /// not collide again at once.
    private static func backOff(after attempt: Int) {
        let longest = 1 << min(attempt, 6)
        usleep(UInt32(Int.random(in: 0...(longest * 1_000))))
    }

    /// How many times a transaction runs reading one snapshot before it locks the rows it reads
    /// instead (on a server whose writers run side by side). Optimistic attempts cost nothing
    /// when writers touch different rows; when they keep changing the same ones (a counter every
    /// request increments), each attempt would lose to another commit, and locking the rows it
    /// reads makes it wait its turn for them and then succeed.
    static let optimisticAttempts = 2

    /// Runs a transaction body once; with `locking`, the objects it fetches are locked until it
    /// ends, and each of its statements sees what was committed before it.
    private func runAttempt<T, Transaction: BaseDataTransaction>(on lane: Writer.Lane, _ make: (ObjectContext) -> Transaction,
                                                                _ body: (Transaction) throws -> T,
                                                                locking: Bool) -> (Result<T, StrataError>, importCollided: Bool) {
        dispatchPrecondition(condition: .onQueue(lane.queue))
        let context = writerContext(on: lane)
        context.locksRowsItReads = locking
        let transaction = make(context)
        defer {
            transaction.isFinished = true
            let leftovers = context.reset()
            // Freed once the lane is free again, after the result is on its way.
            lane.queue.async { withExtendedLifetime(leftovers) {} }
        }
        do {
            let value = try body(transaction)
            _ = try context.commit()
            return (.success(value), false)
        } catch {
            // A serialization failure or deadlock met by a read that cannot throw (`edit`,
            // `fetchExisting`) aborted the transaction: whatever the closure threw after it, the
            // transaction runs again.
            if let conflict = context.abortingConflict {
                context.rollback()
                return (.failure(conflict), false)
            }
            let collided = importCollided(error, context: context)
            return (failure(error, context: context), collided)
        }
    }

    /// Whether `error` is a uniqueness violation of an attribute the context's unique imports
    /// looked objects up by, in a storage whose writers run side by side.
    private func importCollided(_ error: any Error, context: ObjectContext) -> Bool {
        guard case .uniquenessViolation(let table, let columns)? = error as? StrataError, columns.count == 1,
              context.uniqueImportKeys.contains(ObjectContext.UniqueImportKey(table: table, column: columns[0])) else { return false }
        return core.storages.contains { $0.rowIDs != nil && $0.entities.contains { core.layout.entity($0)?.table == table } }
    }

    /// Rolls back after `error` and reports it.
    private func failure<T>(_ error: any Error, context: ObjectContext) -> Result<T, StrataError> {
        switch error {
        case let error as StrataError:
            context.rollback()
            if error != .userCancelled, error.conflict == nil {
                StrataDefaults.logger.log(error: error, message: "a transaction was rolled back", file: #fileID, line: #line)
            }
            return .failure(error)
        default:
            context.rollback()
            return .failure(.userError(UserError(error)))
        }
    }

    /// Whether a commit need not wait for the main context: every storage writes side by side
    /// (where the main context takes commits from its snapshots) and the main context has never
    /// read, so it has no object to bring up to date.
    var mainContextNeedNotCatchUp: Bool {
        core.writerCapacity > 1 && !core.mainContextHasRead.load(ordering: .relaxed)
    }

    /// Brings the main context up to date, then runs `then`, on the main actor in commit order.
    func deliver(then: @escaping @MainActor @Sendable () -> Void) {
        let main = self.main
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                main.catchUp()
                then()
            }
        }
    }

    /// Shows a commit to the main context: at once on the main thread, otherwise as soon as the
    /// main actor runs.
    func publish() {
        if MainQueue.isCurrent {
            let main = self.main
            MainActor.assumeIsolated { _ = main.catchUp() }
        } else {
            deliver {}
        }
    }

    /// Runs a transaction in the background; the completion gets its result on the main actor,
    /// after the main context has seen the commit.
    ///
    /// Asynchronous transactions run in the order they were started, each after the previous
    /// one's completion has run (as CoreStore's transaction queue does): a completion sees the
    /// state its own commit left, not what a transaction started after it did. On a stack whose
    /// storages all write side by side (PostgreSQL), up to their `maximumWriters` run at once,
    /// started in order, and each completion runs when its own transaction is done.
    public func perform<T: Sendable>(asynchronous task: @escaping @Sendable (AsynchronousDataTransaction) throws -> T,
                                     completion: @escaping @MainActor @Sendable (Result<T, StrataError>) -> Void) {
        let lifecycle = core.lifecycle
        do {
            try lifecycle.admit()
        } catch {
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(.failure(error)) } }
            return
        }
        inOrder { done in
            self.inBackground(task) { result, release in
                switch result {
                case .success(let value):
                    self.deliver {
                        completion(.success(value))
                        release()
                        done()
                        lifecycle.finish()
                    }
                case .failure(let error):
                    DispatchQueue.main.async {
                        MainActor.assumeIsolated { completion(.failure(error)) }
                        release()
                        done()
                        lifecycle.finish()
                    }
                }
            }
        }
    }

    /// Starts `start` after every transaction started with a completion handler before it has
    /// run its completion (CoreStore's order), even on a stack whose transactions run side by
    /// side; `start` calls `done` once its own completion has run.
    private func inOrder(_ start: @escaping @Sendable (_ done: @escaping @Sendable () -> Void) -> Void) {
        guard core.writerCapacity > 1 else { return start({}) }
        let gate = self.gate
        gate.enqueue { start { gate.done() } }
    }

    /// Runs `task` as a transaction on a free writer lane, then `then` with its result on the
    /// lane. With one lane, `then` gets the `release` of the lane, to call once the completion has
    /// run (so the next transaction starts after it); with several, the lane is free already.
    private func inBackground<T: Sendable>(_ task: @escaping @Sendable (AsynchronousDataTransaction) throws -> T,
                                           then: @escaping @Sendable (Result<T, StrataError>, _ release: @escaping @Sendable () -> Void) -> Void) {
        let capacity = core.writerCapacity
        let writer = self.writer
        let meter = InstrumentedWork.transaction(instrumentation)
        // Side by side, a transaction waits for a lane up to the busy timeout, as for a row.
        let wait = capacity > 1 ? core.writerWait : nil
        writer.acquire(capacity: capacity, timeout: wait?.timeout, { lane in
            lane.queue.async {
                let laneAt = meter.map { _ in ContinuousClock.now }
                var tally = TransactionTally()
                let result = self.runTransaction(on: lane, AsynchronousDataTransaction.init, task, tally: &tally)
                meter?.endTransaction(result, tally: tally, laneAt: laneAt)
                if capacity > 1 {
                    writer.release(lane, closingAfter: self.core.idleTimeout)
                    then(result, {})
                } else {
                    then(result, { writer.release(lane) })
                }
            }
        }, timedOut: {
            guard let wait else { return }
            let result = Result<T, StrataError>.failure(wait.busy)
            meter?.endTransaction(result, tally: TransactionTally(attempts: 0), laneAt: nil)
            then(result, {})
        })
    }

    /// Runs a transaction in the background with separate success and failure handlers.
    public func perform<T: Sendable>(asynchronous task: @escaping @Sendable (AsynchronousDataTransaction) throws -> T,
                                     success: @escaping @MainActor @Sendable (T) -> Void,
                                     failure: @escaping @MainActor @Sendable (StrataError) -> Void) {
        perform(asynchronous: task) { result in
            switch result {
            case .success(let value): success(value)
            case .failure(let error): failure(error)
            }
        }
    }

    /// Runs a transaction in the background and returns its result once committed and once the
    /// main context has seen the commit. It takes its turn with the asynchronous transactions
    /// started before it. Throws a ``StrataError``, or the error the closure threw, unchanged (so
    /// `catch MyError.offline` matches it); either way nothing was saved.
    @discardableResult
    public func perform<T: Sendable>(_ task: @escaping @Sendable (AsynchronousDataTransaction) throws -> T) async throws -> T {
        try await performReturning(task)
    }

    /// Runs a transaction whose closure's value is not needed, such as
    /// `try await stack.perform { t in try t.importUniqueObjects(Into<Pet>(), sourceArray: pets) }`:
    /// the imported objects cannot leave the transaction, so its value is dropped rather than
    /// returned. Disfavoured, so that a closure whose value can be returned still returns it; it
    /// is chosen when the value is not `Sendable` (objects are explicitly not).
    @_disfavoredOverload
    public func perform(_ task: @escaping @Sendable (AsynchronousDataTransaction) throws -> Void) async throws {
        try await performReturning(task)
    }

    /// The asynchronous transaction, spelled with its label so that no context can read it as
    /// another: `try await stack.perform(asynchronous: { transaction in … })`.
    ///
    /// Use it in top-level code (`main.swift`): there Swift ranks overloads as if the code were
    /// synchronous, so a bare trailing closure, `try await stack.perform { … }`, runs
    /// ``perform(synchronous:)`` instead (the compiler's only sign is the warning "no 'async'
    /// operations occur within 'await' expression"). In functions, closures and `Task`s the two
    /// spellings are the same transaction. (Disfavoured, so that a trailing closure, which could
    /// match this label too, still means `perform(_:)`.)
    @_disfavoredOverload
    @discardableResult
    public func perform<T: Sendable>(asynchronous task: @escaping @Sendable (AsynchronousDataTransaction) throws -> T) async throws -> T {
        try await performReturning(task)
    }

    private func performReturning<T: Sendable>(_ task: @escaping @Sendable (AsynchronousDataTransaction) throws -> T) async throws -> T {
        try core.lifecycle.admit()
        defer { core.lifecycle.finish() }
        let result: Result<T, StrataError> = await withCheckedContinuation { continuation in
            inBackground(task) { result, release in
                switch result {
                case .success where self.mainContextNeedNotCatchUp:
                    // Nothing of the main context to bring up to date: no hop to the main actor.
                    self.core.commits.dropAll()
                    continuation.resume(returning: result)
                    release()
                case .success:
                    self.deliver {
                        continuation.resume(returning: result)
                        release()
                    }
                case .failure:
                    continuation.resume(returning: result)
                    release()
                }
            }
        }
        return try result.mapError(\.rethrown).get()
    }

    /// Runs a transaction and waits for it. Called on the main actor, the main context is up to
    /// date when this returns; from elsewhere, the main context catches up asynchronously.
    /// Calling it from inside a transaction throws ``StrataError/synchronousPerformInsideTransaction``.
    /// Throws a ``StrataError``, or the error the closure threw, unchanged.
    // Disfavoured so that `try await stack.perform { ... }` (a trailing closure, which drops the
    // `synchronous:` label) always means the asynchronous perform.
    @_disfavoredOverload
    @discardableResult
    public func perform<T>(synchronous task: (SynchronousDataTransaction) throws -> T) throws -> T {
        try perform(synchronous: task, waitForAllObservers: true)
    }

    /// `perform(synchronous:)` as CoreStore spells it: with `waitForAllObservers` false, the main
    /// context and its observers see the commit on the main actor's next turn, even when called
    /// on the main thread, instead of before this returns.
    @_disfavoredOverload
    @discardableResult
    public func perform<T>(synchronous task: (SynchronousDataTransaction) throws -> T, waitForAllObservers: Bool) throws -> T {
        if writer.isOnQueue { throw StrataError.synchronousPerformInsideTransaction }
        try core.lifecycle.admit()
        defer { core.lifecycle.finish() }
        let meter = InstrumentedWork.transaction(instrumentation)
        // With one lane, the transaction takes its place on it after what is already queued,
        // without waiting for asynchronous transactions' completions (the caller holds a thread).
        let capacity = core.writerCapacity
        let lane: Writer.Lane
        if capacity > 1 {
            let wait = core.writerWait
            guard let given = writer.acquireWaiting(capacity: capacity, timeout: wait.timeout) else {
                meter?.endTransaction(Result<Void, StrataError>.failure(wait.busy), tally: TransactionTally(attempts: 0), laneAt: nil)
                throw wait.busy
            }
            lane = given
        } else {
            lane = writer.first
        }
        defer { if capacity > 1 { writer.release(lane, closingAfter: core.idleTimeout) } }
        let result = withoutActuallyEscaping(task) { task in
            UncheckedBox(lane.queue.sync {
                let laneAt = meter.map { _ in ContinuousClock.now }
                var tally = TransactionTally()
                let result = self.runTransaction(on: lane, SynchronousDataTransaction.init, task, tally: &tally)
                meter?.endTransaction(result, tally: tally, laneAt: laneAt)
                return UncheckedBox(result)
            }.value)
        }.value
        switch result {
        case .success(let value):
            if waitForAllObservers { publish() } else { deliver {} }
            return value
        case .failure(let error):
            throw error.rethrown
        }
    }

    /// A transaction you commit yourself, as often as you like, on the thread you use it from.
    /// It writes through its own connection, so it waits for other writers at commit.
    ///
    /// It reads without holding the write lock, so other commits may change its objects between
    /// its reads and its commit: each commit compares the objects it changed with the store and
    /// settles attributes both changed by `mergePolicy` (``MergePolicy/error`` unless given).
    ///
    /// Once the stack is closing (see ``close()``), its reads that need a connection and its
    /// commits throw ``StrataError/stackClosed(model:)``.
    public func beginUnsafe(mergePolicy: MergePolicy = .error) -> UnsafeDataTransaction {
        let lifecycle = core.lifecycle
        let context = ObjectContext(core: core, kind: .transaction, openConnection: { handle throws(StrataError) in
            try lifecycle.refuseIfClosing()
            return try handle.backend.writer()
        }, openReader: { handle throws(StrataError) in
            try lifecycle.refuseIfClosing()
            return try handle.backend.reader()
        })
        context.tracksConflicts = true
        context.mergePolicy = mergePolicy
        return UnsafeDataTransaction(context: context, stack: self)
    }
}

/// Whether code runs on the main dispatch queue, where the main actor's jobs run. (Foundation's
/// `Thread.isMainThread` is not the same test: a test runner may drain the main queue from
/// another thread.)
enum MainQueue {
    private static let key = DispatchSpecificKey<Bool>()
    private static let installed: Void = DispatchQueue.main.setSpecific(key: key, value: true)

    static var isCurrent: Bool {
        installed
        return DispatchQueue.getSpecific(key: key) == true
    }
}

/// Carries a value across a synchronous hop to the writer queue and back.
// `@unchecked Sendable` is sound: the box is only used by `perform(synchronous:)`, whose caller is
// blocked for the whole hop, so the value is used on one thread at a time and never concurrently.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A transaction that lives until you drop it, committing as often as you call ``commit()``.
public final class UnsafeDataTransaction: BaseDataTransaction {
    private let stack: DataStack

    init(context: ObjectContext, stack: DataStack) {
        self.stack = stack
        super.init(context: context)
    }

    /// Writes every change in one SQLite transaction per storage. On failure everything since the
    /// last commit is rolled back and the error thrown.
    public func commit() throws(StrataError) {
        let lifecycle = stack.core.lifecycle
        try lifecycle.admit()
        defer { lifecycle.finish() }
        _ = try context.commit()
        stack.publish()
    }

    /// Forgets every change since the last commit.
    public func rollback() {
        context.rollback()
    }

    /// How a commit settles attributes that another commit changed too (see ``MergePolicy``).
    public var mergePolicy: MergePolicy {
        get { context.mergePolicy }
        set { context.mergePolicy = newValue }
    }

    /// Brings every object of this transaction to what the store holds now, keeping the changes
    /// not yet committed. Call it before changing objects read a while ago, so the changes are
    /// based on the latest values and do not conflict with commits made since.
    public func refreshAndMergeAllObjects() throws(StrataError) {
        try context.refreshAndMergeAll()
    }
}
