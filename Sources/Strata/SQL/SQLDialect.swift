/// The SQL a store speaks. Every place where SQLite's and PostgreSQL's SQL differ is a member of
/// this type; the rest of the runtime builds one statement for both.
public enum SQLDialect: String, Sendable, Hashable, CaseIterable {
    /// SQLite 3: dynamic typing with declared affinities, `INTEGER PRIMARY KEY` row ids.
    case sqlite
    /// PostgreSQL 12 or later: a natural type per attribute, text compared and ordered byte by
    /// byte (`COLLATE "C"`), as SQLite's BINARY collation does.
    case postgresql

    /// The declared type of an attribute's column.
    ///
    /// On SQLite, floating-point and date columns are declared `BLOB`: a column of REAL affinity
    /// stores a whole-number double as an integer, which turns -0.0 into 0.0, while BLOB affinity
    /// keeps every value exactly as it was bound; comparisons and ordering stay numeric. On
    /// PostgreSQL each type has an exact counterpart; a `Date` is its `double precision` seconds
    /// since 2001-01-01 (the interval `Date` holds), since `timestamptz` keeps microseconds only.
    public func columnType(_ type: AttributeType) -> String {
        switch self {
        case .sqlite:
            switch type {
            case .bool, .int16, .int32, .int64, .int: return "INTEGER"
            case .double, .float, .date: return "BLOB"
            case .decimal, .string, .url: return "TEXT"
            case .data, .uuid, .codable: return "BLOB"
            }
        case .postgresql:
            switch type {
            case .bool: return "boolean"
            case .int16: return "smallint"
            case .int32: return "integer"
            case .int64, .int: return "bigint"
            case .double, .date: return "double precision"
            case .float: return "real"
            case .decimal: return "numeric"
            case .string, .url: return text
            case .data, .codable: return "bytea"
            case .uuid: return "uuid"
            }
        }
    }

    /// A 64-bit integer column: ids, foreign keys, entity codes, order positions.
    public var integer: String {
        switch self {
        case .sqlite: return "INTEGER"
        case .postgresql: return "bigint"
        }
    }

    /// A text column that compares and orders byte by byte.
    public var text: String {
        switch self {
        case .sqlite: return "TEXT"
        case .postgresql: return "text COLLATE \"C\""
        }
    }

    /// The type of a table's id column: the row id on SQLite, a plain 64-bit key on PostgreSQL
    /// (ids are handed out by Strata, never by the table).
    public var idColumn: String {
        switch self {
        case .sqlite: return "INTEGER PRIMARY KEY"
        case .postgresql: return "bigint PRIMARY KEY"
        }
    }

    /// What follows the definition of a table keyed by its primary key alone (link tables):
    /// SQLite stores such a table as its key's index.
    public var keyOnlyTableSuffix: String {
        switch self {
        case .sqlite: return " WITHOUT ROWID"
        case .postgresql: return ""
        }
    }

    /// A name Strata makes up (an index's) as the dialect keeps it whole: PostgreSQL cuts
    /// identifiers at 63 bytes, so a longer name keeps its first 46 bytes and gains a hash of the
    /// whole, and two long names that share a beginning stay apart.
    public func madeUpName(_ name: String) -> String {
        guard self == .postgresql, name.utf8.count > 63 else { return name }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01B3
        }
        var prefix = ""
        for character in name where prefix.utf8.count + character.utf8.count <= 46 { prefix.append(character) }
        let digits = String(hash, radix: 16)
        return prefix + "_" + String(repeating: "0", count: 16 - digits.count) + digits
    }
}
