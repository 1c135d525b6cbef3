/// The SQL a store speaks. Every place where SQLite's and PostgreSQL's SQL differ is a member of
/// this type; the rest of the runtime builds one statement for both.
public enum SQLDialect: String, Sendable, Hashable, CaseIterable {
    /// SQLite 3: dynamic typing with declared affinities, `INTEGER PRIMARY KEY` row ids.
    case sqlite
    /// PostgreSQL 12 or later: a natural type per attribute, text compared and ordered byte by
    /// byte (`COLLATE "C"`), as SQLite's BINARY collation does.
    case postgresql

    /// How many unique IDs one uniquing lookup of an import binds (`IN (?, ?, ...)`): on SQLite,
    /// where a lookup is a function call, a size whose statement stays small; on a server, where
    /// each lookup is a round trip and a plan, many more (PostgreSQL takes 65,535 parameters).
    package var lookupChunkSize: Int {
        switch self {
        case .sqlite: return 500
        case .postgresql: return 10_000
        }
    }

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

    /// What ends a `SELECT` of a table aliased `t` that locks the rows it reads until the
    /// transaction ends: PostgreSQL's `FOR UPDATE OF t`; nothing on SQLite, whose writer holds
    /// the whole file.
    var lockingRows: String {
        switch self {
        case .sqlite: return ""
        case .postgresql: return " FOR UPDATE OF t"
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

    /// The schema of temporary tables: `temp."name"` on SQLite, `pg_temp."name"` on PostgreSQL.
    public var temporarySchema: String {
        switch self {
        case .sqlite: return "temp"
        case .postgresql: return "pg_temp"
        }
    }

    /// The larger of several values: SQLite's multi-argument `max`, PostgreSQL's `GREATEST`.
    public func greatest(_ values: [String]) -> String {
        switch self {
        case .sqlite: return "max(" + values.joined(separator: ", ") + ")"
        case .postgresql: return "GREATEST(" + values.joined(separator: ", ") + ")"
        }
    }

    /// A new random UUID's value, for a column the step fills with one per row.
    public var randomUUID: String {
        switch self {
        case .sqlite: return "randomblob(16)"
        case .postgresql: return "gen_random_uuid()"
        }
    }

    /// `INSERT INTO table (columns) rows`, leaving out rows whose key is already there.
    public func insertSkippingExisting(into table: String, columns: String, rows: String) -> String {
        switch self {
        case .sqlite: return "INSERT OR IGNORE INTO " + table + " (" + columns + ") " + rows
        case .postgresql: return "INSERT INTO " + table + " (" + columns + ") " + rows + " ON CONFLICT DO NOTHING"
        }
    }

    /// `INSERT INTO table (key, value) rows`, replacing the value of a key that is already there;
    /// `key` is the unique column or columns (`owner, target`), `value` the column replaced.
    public func insertReplacing(into table: String, key: String, value: String, rows: String) -> String {
        switch self {
        case .sqlite: return "INSERT OR REPLACE INTO " + table + " (" + key + ", " + value + ") " + rows
        case .postgresql:
            return "INSERT INTO " + table + " (" + key + ", " + value + ") " + rows + " ON CONFLICT (" + key + ") DO UPDATE SET "
                + value + " = excluded." + value
        }
    }

    /// `CAST(expression AS type)` for a conversion between attribute types, or nil when SQLite
    /// reads the stored value as the new type unchanged. On PostgreSQL a `boolean` is first made
    /// 0 or 1 (as SQLite stores it), and a `uuid` becomes its 16 bytes.
    func cast(_ expression: String, from old: AttributeType, to new: AttributeType) -> String? {
        switch self {
        case .sqlite:
            switch new {
            case .double, .float: return old == .double || old == .float || old == .date ? nil : "CAST(" + expression + " AS REAL)"
            case .string, .decimal: return old == .decimal || old == .url || old == .string ? nil : "CAST(" + expression + " AS TEXT)"
            default: return nil
            }
        case .postgresql:
            if old == new { return nil }
            if old == .uuid && new == .data { return "decode(replace(CAST(" + expression + " AS text), '-', ''), 'hex')" }
            let source = old == .bool ? "CAST(" + expression + " AS integer)" : expression
            return old == .bool && new == .int32 ? source : "CAST(" + source + " AS " + columnType(new) + ")"
        }
    }

    /// A stored value written into DDL (`ADD COLUMN ... DEFAULT`), as a column of `type` reads it
    /// back exactly, or nil for a value SQL text cannot carry exactly (see ``SQLLiteral``).
    func literal(_ value: SQLValue, for type: AttributeType?) -> String? {
        guard let text = SQLLiteral.literal(value) else { return nil }
        guard self == .postgresql else { return text }
        switch (value, type) {
        case (.integer(let number), .bool?): return number == 0 ? "false" : "true"
        case (.blob(let bytes), .uuid?):
            guard bytes.count == 16 else { return nil }
            return "'" + SQLLiteral.hex(bytes) + "'::uuid"
        case (.blob(let bytes), _): return "'\\x" + SQLLiteral.hex(bytes) + "'::bytea"
        default: return text
        }
    }

    /// A bound value in a place the statement does not give it a type (a `SELECT` list, a `CASE`
    /// result): PostgreSQL would read it as text, so it is cast to the column's type there.
    func parameter(for type: AttributeType?) -> String {
        switch self {
        case .sqlite: return "?"
        case .postgresql:
            switch type {
            case .string?, .url?: return "CAST(? AS text)"
            case let type?: return "CAST(? AS " + columnType(type) + ")"
            case nil: return "CAST(? AS bigint)"
            }
        }
    }

    /// A name Strata makes up (an index's) as the dialect keeps it whole: PostgreSQL cuts
    /// identifiers at 63 bytes, so a longer name keeps its first 46 bytes and gains a hash of the
    /// whole, and two long names that share a beginning stay apart.
    public func madeUpName(_ name: String) -> String {
        guard self == .postgresql, name.utf8.count > 63 else { return name }
        let hash = FNV1a.hash(name)
        var prefix = ""
        for character in name where prefix.utf8.count + character.utf8.count <= 46 { prefix.append(character) }
        let digits = String(hash, radix: 16)
        return prefix + "_" + String(repeating: "0", count: 16 - digits.count) + digits
    }
}
