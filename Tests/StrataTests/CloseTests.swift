import Dispatch
import Foundation
import StrataTestSupport
import Synchronization
import Testing
@testable import Strata

/// `DataStack.close()`: work asked for before it finishes, work asked for after it is refused
/// with one exact message, monitors and change sequences end after the last commits, and the
/// stack's connections close.
@MainActor
@Suite("Closing a stack", .timeLimit(.minutes(5)))
struct CloseTests {
    static let refusal = "the stack of model 'Zoo' was closed, so it takes no more work and nothing was done; "
        + "add the storage to a new DataStack to use the store again"

    /// A stack over a store that a second stack can open after the first is closed.
    private func makeReopenableStack(_ name: String) async throws -> (DataStack, @Sendable () -> any StorageInterface) {
        TestLog.install()
        let store = try sharedStore(file: temporaryStoreURL(name))
        let stack = DataStack(Zoo.schemaHistory)
        try await stack.addStorage(store())
        return (stack, store)
    }

    /// Starts closing `stack` and returns once it has begun (so new work is refused), with the
    /// task that finishes it.
    private func beginClosing(_ stack: DataStack) async throws -> Task<Void, Never> {
        let closing = Task.detached { await stack.close() }
        while (try? stack.core.lifecycle.refuseIfClosing()) != nil { try await Task.sleep(for: .milliseconds(1)) }
        return closing
    }

    @Test func workAskedForBeforeCloseFinishesAndWorkAskedForAfterIsRefused() async throws {
        let (stack, store) = try await makeReopenableStack("Finish.sqlite")
        let running = Turnstile()
        let first = await running.hold(in: stack) { transaction in transaction.create(Into<Person>()).name = "running" }
        let completions = Mutex<[Result<Void, StrataError>]>([])
        for index in 0..<5 {
            stack.perform(asynchronous: { transaction in transaction.create(Into<Person>()).name = "queued-\(index)" },
                          completion: { result in completions.withLock { $0.append(result) } })
        }
        let closing = try await beginClosing(stack)

        // Refused from the call on, while the admitted work is still running.
        #expect { try stack.perform(synchronous: { transaction in transaction.create(Into<Person>()).name = "late" }) } throws: { error in
            "\(error)" == Self.refusal
        }
        running.release()
        await closing.value
        try await first.value
        #expect(completions.withLock { $0.count } == 5)
        #expect(completions.withLock { $0.allSatisfy { (try? $0.get()) != nil } })

        let reopened = DataStack(Zoo.schemaHistory)
        try await reopened.addStorage(store())
        let names = try reopened.fetchAll(From<Person>().orderBy(.ascending(\.name))).map(\.name)
        #expect(names == ["queued-0", "queued-1", "queued-2", "queued-3", "queued-4", "running"])
    }

    @Test func everyKindOfWorkIsRefusedAfterClose() async throws {
        let (stack, store) = try await makeReopenableStack("Refused.sqlite")
        let ids = try await addPeople(["Ann"], to: stack)
        let ann = try #require(stack.fetchExisting(ids[0]))
        await stack.close()

        let refused: (any Error) -> Bool = { "\($0)" == Self.refusal && ($0 as? StrataError) == .stackClosed(model: "Zoo") }
        await #expect { try await stack.perform { transaction in transaction.create(Into<Person>()).name = "x" } } throws: { refused($0) }
        await #expect { try await stack.perform(asynchronous: { transaction in try transaction.fetchCount(From<Person>()) }) } throws: {
            refused($0)
        }
        #expect { try stack.perform(synchronous: { transaction in try transaction.fetchCount(From<Person>()) }) } throws: { refused($0) }
        let completion: Result<Int, StrataError> = await withCheckedContinuation { continuation in
            stack.perform(asynchronous: { transaction in try transaction.fetchCount(From<Person>()) },
                          completion: { continuation.resume(returning: $0) })
        }
        #expect(completion == .failure(.stackClosed(model: "Zoo")))
        await #expect { try await stack.read { reader in try reader.fetchCount(From<Person>()) } } throws: { refused($0) }
        await #expect { try await stack.addStorage(InMemoryStore(configuration: "Default")) } throws: { refused($0) }
        #expect { try stack.addStorageAndWait(InMemoryStore()) } throws: { refused($0) }

        // The main context, its monitors and its queries.
        #expect { try stack.fetchAll(From<Person>()) } throws: { refused($0) }
        #expect { try stack.fetchCount(From<Person>()) } throws: { refused($0) }
        #expect { try stack.fetchObjectIDs(From<Person>()) } throws: { refused($0) }
        #expect { try stack.queryValue(From<Person>().select(Int.self, .sum(\.visits))) } throws: { refused($0) }
        #expect { try stack.monitorList(From<Person>()) } throws: { refused($0) }
        #expect { try stack.monitorObject(ids[0]) } throws: { refused($0) }
        // An object fetched before keeps what it holds.
        #expect(ann.name == "Ann")

        // An unsafe transaction can neither read nor commit.
        let unsafe = stack.beginUnsafe()
        #expect { try unsafe.fetchCount(From<Person>()) } throws: { refused($0) }
        unsafe.create(Into<Person>()).name = "unsaved"
        #expect { try unsafe.commit() } throws: { refused($0) }
        #expect(unsafe.hasChanges)

        // A change sequence asked for now ends at once; closing again returns.
        var changes = 0
        for await _ in stack.changes { changes += 1 }
        #expect(changes == 0)
        await stack.close()

        // Nothing refused reached the store.
        let reopened = DataStack(Zoo.schemaHistory)
        try await reopened.addStorage(store())
        #expect(try reopened.fetchAll(From<Person>()).map(\.name) == ["Ann"])
    }

    @Test func monitorsAndChangeSequencesGetTheLastCommitsThenEnd() async throws {
        let (stack, _) = try await makeReopenableStack("Monitors.sqlite")
        let monitor = try stack.monitorList(From<Person>().orderBy(.ascending(\.name)))
        var updates = monitor.updates.makeAsyncIterator()
        let object = try stack.monitorObject(try await addPeople(["Ann"], to: stack)[0])
        var objectUpdates = object.updates.makeAsyncIterator()
        _ = try await updates.next()
        let changes = stack.changes
        let seen = Task.detached {
            var names: [String] = []
            for await change in changes { names += change.changes(of: Person.self)?.inserted.map(\.description) ?? [] }
            return names.count
        }
        while stack.core.changes.subscriberCount == 0 { try await Task.sleep(for: .milliseconds(1)) }

        let running = Turnstile()
        let last = await running.hold(in: stack) { transaction in
            transaction.create(Into<Person>()).name = "Bob"
            try transaction.fetchOne(From<Person>().where(\.name == "Ann"))?.age = 99
        }
        let closing = try await beginClosing(stack)
        running.release()
        try await last.value
        await closing.value

        // The last commit, then the end.
        let update = try #require(try await updates.next())
        #expect(update.changes.inserted.map(\.indexPath) == [ListIndexPath(item: 1, section: 0)])
        do {
            _ = try await updates.next()
            Issue.record("the list monitor's updates went on after the stack was closed")
        } catch {
            #expect("\(error)" == Self.refusal)
        }
        #expect(try await objectUpdates.next() != nil)
        do {
            _ = try await objectUpdates.next()
            Issue.record("the object monitor's updates went on after the stack was closed")
        } catch {
            #expect("\(error)" == Self.refusal)
        }
        #expect(await seen.value == 1)
        // The monitor keeps its last list; its objects can no longer be read.
        #expect(monitor.numberOfObjects == 2 && update.snapshot.count == 2)
    }

    @Test func closingTwiceAtOnceWaitsForOneClosing() async throws {
        let (stack, _) = try await makeReopenableStack("Twice.sqlite")
        try await addPeople(["Ann"], to: stack)
        async let first: Void = stack.close()
        async let second: Void = stack.close()
        _ = await (first, second)
        #expect(stack.core.lifecycle.isClosed)
        #expect(stack.core.readers.count(stack.core.storages[0].index) == 0)
    }

    @Test(.sqliteOnly("about SQLite's write-ahead log file"))
    func closingFoldsTheWriteAheadLogIntoTheFile() async throws {
        let file = temporaryStoreURL("Folded.sqlite")
        let stack = DataStack(Zoo.schemaHistory)
        try await stack.addStorage(SQLiteStore(fileURL: file))
        try await addPeople(["Ann", "Bob"], to: stack)
        _ = try await stack.read { reader in try reader.fetchCount(From<Person>()) }
        _ = try stack.fetchAll(From<Person>())
        #expect(FileManager.default.fileExists(atPath: file.path + "-wal"))
        await stack.close()
        // SQLite removes the log when the last connection to the file closes.
        #expect(!FileManager.default.fileExists(atPath: file.path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: file.path + "-shm"))
    }
}

/// Holds a transaction inside its closure until the test lets it go: `arrive` and
/// `waitForRelease` on the writer's thread, `waitForArrival` and `release` in the test.
private final class Turnstile: Sendable {
    private let arrived = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)

    func arrive() { arrived.signal() }
    func waitForRelease() { released.wait() }
    func release() { released.signal() }

    /// Starts a transaction that runs `body` once the test lets it go, and returns when it is
    /// inside its closure (so it is running, and later transactions queue behind it).
    func hold(in stack: DataStack, _ body: @escaping @Sendable (AsynchronousDataTransaction) throws -> Void) async -> Task<Void, any Error> {
        let task = Task.detached {
            try await stack.perform { transaction in
                self.arrive()
                self.waitForRelease()
                try body(transaction)
            }
        }
        await waitForArrival()
        return task
    }

    /// Waits, off Swift concurrency's threads, until the transaction has arrived.
    func waitForArrival() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                self.arrived.wait()
                done.resume()
            }
        }
    }
}
