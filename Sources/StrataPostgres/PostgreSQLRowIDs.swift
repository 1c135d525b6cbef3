// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import Strata
import Synchronization

/// Row ids handed out by the server: each table has a sequence that gives blocks of
/// ``blockSize`` ids (`INCREMENT BY 32`), so no two connections, stacks or processes ever get
/// the same id, with no lock and no row that every insert updates.
///
/// A stack keeps the blocks it reserved until it uses them, and reserves as many at once as a
/// transaction is creating objects (one round trip for up to 1,024 ids): a transaction that
/// creates one object reserves once per 32 objects, not per insert. Blocks that follow each other
/// are joined, so one process alone writes ids 1, 2, 3, ... as on SQLite. Ids are never reused:
/// a block reserved and not used is skipped, and a sequence only moves forward.
final class PostgreSQLRowIDs: RowIDSource {
    /// How many ids one step of a table's sequence reserves.
    static let blockSize: Int64 = 32

    private struct State {
        /// The connection that reserves blocks, made on first use and again once lost.
        var connection: PostgreSQLConnection?
        /// Reserved ids not handed out yet, per table, in ascending order.
        var blocks: [String: [Range<Int64>]] = [:]
    }

    private let backend: PostgreSQLBackend
    private let state: Mutex<State>

    init(backend: PostgreSQLBackend) {
        self.backend = backend
        state = Mutex(State())
    }

    func reserve(table: String, count: Int64) throws(StrataError) -> Range<Int64> {
        try state.withLock { (state: inout State) throws(StrataError) -> Range<Int64> in
            if state.blocks[table, default: []].isEmpty {
                let steps = max(1, (count + Self.blockSize - 1) / Self.blockSize)
                state.blocks[table] = try Self.reserveBlocks(table: table, steps: steps, state: &state, backend: backend)
            }
            let block = state.blocks[table]!.removeFirst()
            guard block.count > count else { return block }
            state.blocks[table]!.insert((block.lowerBound + count)..<block.upperBound, at: 0)
            return block.lowerBound..<(block.lowerBound + count)
        }
    }

    func close() {
        let connection = state.withLock { state -> PostgreSQLConnection? in
            defer { state.connection = nil }
            return state.connection
        }
        connection?.close()
    }

    /// `steps` blocks from the table's sequence, adjacent ones joined.
    private static func reserveBlocks(table: String, steps: Int64, state: inout State, backend: PostgreSQLBackend)
        throws(StrataError) -> [Range<Int64>] {
        let connection: PostgreSQLConnection
        if let kept = state.connection, !kept.isBroken {
            connection = kept
        } else {
            connection = try backend.connectOutsideSchema()
            state.connection = connection
        }
        // The sequence's name is qualified by the store's schema and bound, so the connection
        // needs no search path (which a pooler in transaction mode would not keep).
        let sequence = (backend.schema.map { SQLIdentifier.quote($0) + "." } ?? "") + sequenceName(table: table)
        let sql = "SELECT nextval(CAST($2 AS regclass)) FROM generate_series(1, $1)"
        let starts = try connection.query(sql, [.integer(steps), .text(sequence)]).rows.compactMap { $0.first.flatMap { Int64(sqlValue: $0) } }.sorted()
        var blocks: [Range<Int64>] = []
        for start in starts {
            if let last = blocks.last, last.upperBound == start {
                blocks[blocks.count - 1] = last.lowerBound..<(start + blockSize)
            } else {
                blocks.append(start..<(start + blockSize))
            }
        }
        guard !blocks.isEmpty else { throw .server(code: "?", message: "the server reserved no row ids for \(table)", sql: sql) }
        return blocks
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
