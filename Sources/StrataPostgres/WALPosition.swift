// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import Strata

/// A position in a server's write-ahead log (an LSN), as PostgreSQL writes it: two hexadecimal
/// halves, `16/B374D848`. Positions only grow, so a standby that has replayed up to a commit's
/// position shows that commit.
struct WALPosition: Sendable, Comparable, Hashable, CustomStringConvertible {
    let value: UInt64

    init(value: UInt64) {
        self.value = value
    }

    /// The position `text` names, or nil when it is not one.
    init?(text: String) {
        let halves = text.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2, (1...8).contains(halves[0].count), (1...8).contains(halves[1].count),
              let high = UInt64(halves[0], radix: 16), let low = UInt64(halves[1], radix: 16) else { return nil }
        value = high << 32 | low
    }

    static func < (lhs: WALPosition, rhs: WALPosition) -> Bool { lhs.value < rhs.value }

    var description: String {
        String(value >> 32, radix: 16, uppercase: true) + "/" + String(value & 0xFFFF_FFFF, radix: 16, uppercase: true)
    }

    /// The position in a result's first row (at `column`); nil when the server returned NULL,
    /// an error naming `sql` when it returned no row or something that is not a position.
    static func read(_ result: PostgreSQLConnection.Result, column: Int = 0, sql: String) throws(StrataError) -> WALPosition? {
        guard let row = result.rows.first, row.count > column else {
            throw .server(code: "?", message: "the server did not return its log position", sql: sql)
        }
        guard let text = String(sqlValue: row[column]) else { return nil }
        guard let position = WALPosition(text: text) else {
            throw .server(code: "?", message: "the server returned '\(text)' as a log position", sql: sql)
        }
        return position
    }

    /// The start of the log, which every server has replayed.
    static let start = WALPosition(value: 0)
}
#endif
