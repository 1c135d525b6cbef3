// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import Dispatch
import NIOCore
import Strata
import Synchronization

/// Row ids handed out by the server: each table has a sequence that gives blocks of
/// ``blockSize`` ids (`INCREMENT BY 32`), so no two connections, stacks or processes ever get
/// the same id, with no lock and no row that every insert updates.
///
/// A stack keeps the blocks it reserved until it uses them, and reserves as many at once as a
/// transaction is creating objects (one round trip for up to 1,024 ids). While a table's ids keep
/// running out, each reservation takes twice as many blocks as the one before it, up to
/// ``maximumSteps`` (so a stack writing one object a transaction reserves once per 1,024 objects
/// under load, not once per 32); after a quiet ``busySpell`` it starts again from one block.
/// One reservation a table runs at a time: transactions that run out of a table's ids while
/// one is under way wait for it and take from what it reserved (or fail with its error), instead
/// of each opening a connection of its own. Blocks that follow each other are joined, so one process alone writes
/// ids 1, 2, 3, ... as on SQLite. Ids are never reused: a block reserved and not used (the stack
/// closed first) is skipped, and a sequence only moves forward.
final class PostgreSQLRowIDs: RowIDSource {
    /// How many ids one step of a table's sequence reserves.
    static let blockSize: Int64 = 32
    /// The most blocks a reservation takes for the pace of a table's use (1,024 ids); a transaction
    /// creating more objects than that reserves what it needs.
    static let maximumSteps: Int64 = 32
    /// How soon after a table's last reservation another one counts as the same busy spell, and
    /// takes twice its blocks.
    static let busySpell = Duration.seconds(1)
    /// How many reservation connections are kept for later reservations (of different tables at
    /// once); others are closed once used.
    static let maximumKept = 2

    /// A connection kept for later reservations.
    // `@unchecked Sendable` is sound: a kept connection is used by nobody. A reservation takes it
    // out of the mutex-guarded state (and is then its only user, on one thread) and puts it back
    // when done, so the connection never has two users at once.
    private struct Kept: @unchecked Sendable {
        let connection: PostgreSQLConnection
    }

    private struct State {
        /// Connections that reserve blocks when no reservation is using them; made as needed.
        var kept: [Kept] = []
        /// Reserved ids not handed out yet, per table, in ascending order.
        var blocks: [String: [Range<Int64>]] = [:]
        /// The tables whose reservation is under way, and that reservation.
        var reserving: [String: Reservation] = [:]
        /// Per table, how many blocks its last reservation took, and when it started.
        var lastReservation: [String: (steps: Int64, at: ContinuousClock.Instant)] = [:]
        /// Whether the stack closed: a connection given back is closed instead of kept.
        var isClosed = false
    }

    /// A reservation under way, which the transactions that need the same table's ids wait for.
    private final class Reservation: Sendable {
        private let running = DispatchGroup()
        private let failure = Mutex<StrataError?>(nil)

        init() { running.enter() }

        /// Ends it, with the error it failed with, if any, and wakes those waiting.
        func finish(failing error: StrataError?) {
            failure.withLock { $0 = error }
            running.leave()
        }

        /// Waits until it ends; the error it failed with, if it did.
        func wait() -> StrataError? {
            running.wait()
            return failure.withLock { $0 }
        }
    }

    /// What a transaction that needs ids does next.
    private enum Next {
        case use(Range<Int64>)
        case wait(Reservation)
        case reserve(steps: Int64, on: Kept?, Reservation)
    }

    /// How long the server may take to answer a reservation before its connection is closed and
    /// the transaction fails with `connectionLost` (a sequence step answers at once unless the
    /// server is stuck).
    static let answerLimit: TimeAmount = .seconds(30)

    private let backend: PostgreSQLBackend
    private let state: Mutex<State>

    init(backend: PostgreSQLBackend) {
        self.backend = backend
        state = Mutex(State())
    }

    func reserve(table: String, count: Int64) throws(StrataError) -> Range<Int64> {
        while true {
            switch state.withLock({ Self.next(count, of: table, in: &$0) }) {
            case .use(let run):
                return run
            case .wait(let reservation):
                // Its failure (the server unreachable) is this transaction's too: each waiting
                // transaction trying again in turn would wait for one connection timeout after another.
                if let failure = reservation.wait() { throw failure }
            case .reserve(let steps, let kept, let reservation):
                // The round trip runs outside the lock: a slow server holds up only the transactions
                // that need new ids of this table, never those whose ids are reserved already.
                try reserveBlocks(table: table, steps: steps, on: kept, for: reservation)
            }
        }
    }

    func close() {
        let kept = state.withLock { state -> [Kept] in
            state.isClosed = true
            defer { state.kept.removeAll() }
            return state.kept
        }
        for each in kept { each.connection.close() }
    }

    /// Ids kept for `table`, else waiting for the reservation under way, else a reservation of
    /// this caller's: enough blocks for `count` ids, and more while the table's ids keep running out.
    private static func next(_ count: Int64, of table: String, in state: inout State) -> Next {
        if let run = take(count, of: table, from: &state) { return .use(run) }
        if let underWay = state.reserving[table] { return .wait(underWay) }
        let reservation = Reservation()
        state.reserving[table] = reservation
        let now = ContinuousClock.now
        let steps = steps(for: count, after: state.lastReservation[table], now: now)
        state.lastReservation[table] = (steps, now)
        return .reserve(steps: steps, on: state.kept.popLast(), reservation)
    }

    /// How many blocks a reservation for `count` ids takes, `last` being the table's previous
    /// reservation: twice the previous one's within a busy spell (up to ``maximumSteps``), one
    /// after a quiet one, and always enough for `count`.
    static func steps(for count: Int64, after last: (steps: Int64, at: ContinuousClock.Instant)?,
                      now: ContinuousClock.Instant) -> Int64 {
        var paced: Int64 = 1
        if let last, now - last.at < busySpell { paced = min(maximumSteps, last.steps * 2) }
        return max(paced, (count + blockSize - 1) / blockSize)
    }

    /// Reserves `steps` blocks of `table` (on the kept connection given, or a new one), keeps
    /// them, and ends `reservation`, waking the transactions waiting for it, also when it fails.
    private func reserveBlocks(table: String, steps: Int64, on kept: Kept?, for reservation: Reservation) throws(StrataError) {
        var connection = kept?.connection
        var reserved: [Range<Int64>] = []
        var failure: StrataError?
        do {
            if connection == nil || connection!.isBroken { connection = try connect() }
            reserved = try Self.reserveBlocks(table: table, steps: steps, on: connection!, schema: backend.schema)
        } catch {
            connection?.close()
            connection = nil
            failure = error
        }
        let returned = connection.map(Kept.init)
        let extra = state.withLock { state -> Kept? in
            state.blocks[table] = Self.joined(state.blocks[table, default: []] + reserved)
            state.reserving[table] = nil
            guard let returned, state.kept.count < Self.maximumKept, !state.isClosed else { return returned }
            state.kept.append(returned)
            return nil
        }
        extra?.connection.close()
        reservation.finish(failing: failure)
        if let failure { throw failure }
    }

    /// A connection for reservations, whose statements may not go unanswered for long.
    private func connect() throws(StrataError) -> PostgreSQLConnection {
        let connection = try backend.connectOutsideSchema()
        connection.answerLimit = Self.answerLimit
        return connection
    }

    /// Up to `count` ids of the first block kept for `table`, or nil when none is kept.
    private static func take(_ count: Int64, of table: String, from state: inout State) -> Range<Int64>? {
        guard let block = state.blocks[table]?.first else { return nil }
        state.blocks[table]!.removeFirst()
        guard block.count > count else { return block }
        state.blocks[table]!.insert((block.lowerBound + count)..<block.upperBound, at: 0)
        return block.lowerBound..<(block.lowerBound + count)
    }

    /// `steps` blocks from the table's sequence.
    private static func reserveBlocks(table: String, steps: Int64, on connection: PostgreSQLConnection, schema: String?)
        throws(StrataError) -> [Range<Int64>] {
        // The sequence's name is qualified by the store's schema and bound, so the connection
        // needs no search path (which a pooler in transaction mode would not keep).
        let sequence = (schema.map { SQLIdentifier.quote($0) + "." } ?? "") + sequenceName(table: table)
        let sql = "SELECT nextval(CAST($2 AS regclass)) FROM generate_series(1, $1)"
        let starts = try connection.query(sql, [.integer(steps), .text(sequence)]).rows.compactMap { $0.first.flatMap { Int64(sqlValue: $0) } }
        guard !starts.isEmpty else { throw .server(code: "?", message: "the server reserved no row ids for \(table)", sql: sql) }
        return starts.map { $0..<($0 + blockSize) }
    }

    /// Blocks in ascending order, adjacent ones joined (so one process alone hands out 1, 2, 3, ...).
    static func joined(_ blocks: [Range<Int64>]) -> [Range<Int64>] {
        var joined: [Range<Int64>] = []
        for block in blocks.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = joined.last, last.upperBound == block.lowerBound {
                joined[joined.count - 1] = last.lowerBound..<block.upperBound
            } else {
                joined.append(block)
            }
        }
        return joined
    }

    /// The sequence of a table: a fixed-length name from a hash of the table's, since PostgreSQL
    /// cuts names at 63 bytes (two long table names could otherwise share one).
    static func sequenceName(table: String) -> String {
        let hash = String(FNV1a.hash(table), radix: 16)
        return "strata_ids_" + String(repeating: "0", count: 16 - hash.count) + hash
    }

    /// Creates the sequences of the tables that have none, each starting past the table's
    /// highest id and past the ids an earlier Strata recorded for it (`strata_sequences`, which
    /// keeps the ids of deleted rows from being used again). Runs under the migration lock, so
    /// no other process of this version writes while a sequence is made.
    static func createMissingSequences(_ connection: any DatabaseConnection, tables: [String]) throws(StrataError) {
        let existing = try connection.prepare(
            "SELECT relname FROM pg_class WHERE relkind = 'S' AND relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())")
        var names: Set<String> = []
        while try existing.step() { names.insert(existing.row.string(0)) }
        let recorded = try connection.tableNames().contains(SchemaSQL.sequenceTable)
        for table in tables {
            let sequence = sequenceName(table: table)
            guard !names.contains(sequence) else { continue }
            try connection.execute("CREATE SEQUENCE \(sequence) INCREMENT BY \(blockSize) MINVALUE 1")
            var floors = ["(SELECT coalesce(max(\(SQLIdentifier.quote(StoreLayout.idColumn))), 0) + 1 FROM \(SQLIdentifier.quote(table)))"]
            if recorded {
                floors.append("(SELECT coalesce(max(CAST(value AS bigint)), 1) FROM \(SQLIdentifier.quote(SchemaSQL.sequenceTable)) WHERE name = ?)")
            }
            let start = try connection.prepare("SELECT setval('\(sequence)', greatest(\(floors.joined(separator: ", "))), false)")
            if recorded { start.bind(.text(table), at: 1) }
            try start.step()
        }
    }
}
#endif
