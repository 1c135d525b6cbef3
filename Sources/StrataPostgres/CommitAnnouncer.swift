// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import Dispatch
import NIOCore
import Strata
import Synchronization

/// Tells the stacks that listen of one store's commits, gathered: the first commit after a quiet
/// spell is announced at once, and the commits made within ``gatheringWindow`` of an announcement
/// go together in the next, one notification (see ``CommitNotice``) for all of them.
///
/// Every notification costs the server a transaction of its own and wakes every listening stack
/// of every app server, so one per commit made the work of a commit grow with the number of app
/// servers; gathered, a busy stack sends at most one every ``gatheringWindow``, which is a quarter
/// of a stack's default check interval (100 ms), so its listeners learn of its commits hardly
/// later. The notifications go on a connection of the announcer's own, never waited for, so no
/// transaction waits for them either. A notification that never goes (this process died, or the
/// connection was lost) is made up for by the listeners' accounting (see `PostgreSQLCommitProbe`).
// `connection`, `lastNotice` and `isClosed`, the only mutable state outside
// the mutex, are read and written only by code on the serial `queue` (`flush` checks it with a
// dispatch precondition; the rest runs from there or a block on the queue) or by `deinit`, when no
// other reference is left: no two threads touch them at once, so `@unchecked Sendable` is sound.
final class CommitAnnouncer: @unchecked Sendable {
    /// How long after an announcement the next one waits, gathering the commits made meanwhile
    /// (unless given).
    static let gatheringWindow = Duration.milliseconds(25)
    /// Most own commits remembered until a listener hears them (see ``isOwn(_:)``).
    static let rememberedCommits = 4_096

    private struct Gathered {
        /// The commits waiting to be announced: each id and what its line says after the id.
        var commits: [(id: Int64, suffix: String)] = []
        var flushScheduled = false
        var lastSent: ContinuousClock.Instant?
        /// Commits announced that this stack's listener has not heard back yet.
        var own: Set<Int64> = []
    }

    private let gathered = Mutex(Gathered())
    private let queue = DispatchQueue(label: "strata.postgres.commit-announcer")
    private let connect: @Sendable () throws(StrataError) -> PostgreSQLConnection
    private let idleTimeout: Duration?
    private let window: Duration
    private var connection: PostgreSQLConnection?
    /// The answer to the last notification sent, which a close waits for (closing would drop it).
    private var lastNotice: EventLoopFuture<Void>?
    private let idleSweep = IdleSweep()
    /// Set by ``close()``: later commits are not announced (their stack is closing).
    private var isClosed = false

    /// An announcer that sends on a connection `connect` makes (again after a loss), closed once
    /// unused for `idleTimeout` (nil: kept), and gathers the commits of `window` after each
    /// announcement.
    init(idleTimeout: Duration?, window: Duration = gatheringWindow,
         connect: @escaping @Sendable () throws(StrataError) -> PostgreSQLConnection) {
        self.connect = connect
        self.idleTimeout = idleTimeout
        self.window = window
    }

    /// Announces the commit of transaction `id`, whose line of a notification goes on with
    /// `suffix` (see ``CommitNotice/suffix(tables:)``): now, or with the next announcement when
    /// one went within the window. Never waits.
    func announce(_ id: Int64, suffix: String) {
        let delay = gathered.withLock { gathered -> Duration? in
            gathered.commits.append((id, suffix))
            if gathered.own.count >= Self.rememberedCommits { gathered.own.removeAll(keepingCapacity: true) }
            gathered.own.insert(id)
            guard !gathered.flushScheduled else { return nil }
            gathered.flushScheduled = true
            guard let lastSent = gathered.lastSent else { return .zero }
            return max(.zero, window - (ContinuousClock.now - lastSent))
        }
        guard let delay else { return }
        if delay == .zero {
            queue.async { self.flush() }
        } else {
            queue.asyncAfter(deadline: .now() + DispatchTimeInterval(delay)) { self.flush() }
        }
    }

    /// Whether `id` is a commit this announcer announced and its stack's listener had not heard
    /// back yet (it is forgotten now).
    func isOwn(_ id: Int64) -> Bool {
        gathered.withLock { $0.own.remove(id) != nil }
    }

    /// Sends the commits gathered so far now, without waiting for the window to end (the
    /// notifications' answers are not waited for).
    func flushNow() {
        queue.sync { flush() }
    }

    /// Sends the commits gathered so far, waits for the answer, and closes the connection; later
    /// commits are not announced. Waits for the server: not for Swift concurrency's threads.
    func close() {
        queue.sync {
            flush()
            closeConnection()
            isClosed = true
        }
    }

    /// Sends every gathered commit, in as few notifications as PostgreSQL's payload limit allows.
    private func flush() {
        dispatchPrecondition(condition: .onQueue(queue))
        let commits = gathered.withLock { gathered in
            defer {
                gathered.commits.removeAll(keepingCapacity: true)
                gathered.flushScheduled = false
                gathered.lastSent = .now
            }
            return gathered.commits
        }
        guard !commits.isEmpty, !isClosed else { return }
        do throws(StrataError) {
            let connection = try connected()
            for (first, rest) in Self.payloads(commits) { lastNotice = connection.sendCommitNotice(first, rest: rest) }
        } catch {
            // Unreachable for now: the listeners' accounting finds these commits.
            closeConnection()
        }
        scheduleCloseCheck()
    }

    private func connected() throws(StrataError) -> PostgreSQLConnection {
        if let connection, !connection.isBroken { return connection }
        closeConnection()
        let fresh = try connect()
        connection = fresh
        return fresh
    }

    /// The notifications that tell of `commits`: each the id of its first commit, and the rest of
    /// its payload after that id's `+notifier`, within ``CommitNotice/longestPayload`` bytes.
    static func payloads(_ commits: [(id: Int64, suffix: String)]) -> [(first: Int64, rest: String)] {
        var payloads: [(first: Int64, rest: String)] = []
        var first: Int64?
        var rest = ""
        var size = 0
        for commit in commits {
            let line = String(commit.id) + commit.suffix
            if first != nil, size + 1 + line.utf8.count <= CommitNotice.longestPayload {
                rest += "\n" + line
                size += 1 + line.utf8.count
                continue
            }
            if let first { payloads.append((first, rest)) }
            first = commit.id
            rest = commit.suffix
            size = line.utf8.count
        }
        if let first { payloads.append((first, rest)) }
        return payloads
    }

    /// Closes the connection once nothing was sent on it for `idleTimeout`.
    private func scheduleCloseCheck() {
        guard let idleTimeout else { return }
        idleSweep.schedule(after: idleTimeout) { [weak self] in self?.closeIfIdle(for: idleTimeout) }
    }

    /// Closes the connection when nothing was sent on it for `idleTimeout`; how long until it
    /// would be otherwise (nil: closed).
    private func closeIfIdle(for idleTimeout: Duration) -> Duration? {
        queue.sync {
            let idle = gathered.withLock { gathered in gathered.lastSent.map { ContinuousClock.now - $0 } ?? idleTimeout }
            guard idle < idleTimeout else {
                closeConnection()
                return nil
            }
            return idleTimeout - idle
        }
    }

    /// Closes the connection once the last notification sent on it was answered, or the
    /// connection closed, or 5 seconds passed: postgres-nio can leave a statement unanswered for
    /// good when its connection closes just as it is sent, and a close must not wait for that.
    private func closeConnection() {
        if let lastNotice, let connection, !connection.isBroken {
            let eventLoop = lastNotice.eventLoop
            // The first of the three to come settles it (NIO keeps a promise's first completion).
            let settled = eventLoop.makePromise(of: Void.self)
            lastNotice.whenComplete { _ in settled.succeed() }
            connection.connection.closeFuture.whenComplete { _ in settled.succeed() }
            let limit = eventLoop.scheduleTask(in: .seconds(5)) { settled.succeed() }
            try? settled.futureResult.wait()
            limit.cancel()
        }
        lastNotice = nil
        connection?.close()
        connection = nil
    }

    deinit { closeConnection() }
}
#endif
