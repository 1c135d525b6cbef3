/// The SQL of expressions that differ between dialects: text matches (`contains`, `beginsWith`, `endsWith`, `like`) and numeric ordering
/// of decimals, in each dialect. Case-insensitive matches compare `strata_fold(...)`, which every
/// Strata connection can call: a function SQLite connections register, and one PostgreSQL
/// stores create (both fold case by Unicode rules).
extension SQLDialect {
    /// A condition that `value` (an SQL expression) holds the text of `argument` (a placeholder
    /// or a call over one).
    func contains(_ value: String, _ argument: String) -> String {
        switch self {
        case .sqlite: return "instr(" + value + ", " + argument + ") > 0"
        case .postgresql: return "strpos(" + value + ", " + argument + ") > 0"
        }
    }

    /// The last `count` characters of `value` (`count` an SQL expression).
    func suffix(_ value: String, count: String) -> String {
        switch self {
        case .sqlite: return "substr(" + value + ", -" + count + ")"
        case .postgresql: return "right(" + value + ", " + count + ")"
        }
    }

    /// A condition that `value` matches a LIKE pattern (`%`, `_`, `\` escaping), case-sensitively
    /// as on every platform Strata runs: SQLite's own LIKE ignores ASCII case, so there the
    /// pattern becomes a GLOB pattern.
    func like(_ value: String, _ argument: String, pattern: String) -> SQLFragment {
        switch self {
        case .sqlite: return SQLFragment(value + " GLOB " + argument, [.text(TextMatchSQL.globPattern(fromLike: pattern))])
        case .postgresql: return SQLFragment(value + " LIKE " + argument, [.text(pattern)])
        }
    }

    /// The expression a decimal column (`numeric` on PostgreSQL, text on SQLite) sorts by.
    func decimalSortKey(_ column: String) -> String {
        switch self {
        case .sqlite: return "CAST(" + column + " AS REAL)"
        case .postgresql: return column
        }
    }
}

extension SQLDialect {
    /// `function` (`avg`, `sum`, `max`, `min`) over a column of `type`, giving what SQLite gives:
    /// a decimal's numeric value, a Boolean as 0 or 1, an average as a double, a sum of whole
    /// numbers as a whole number (PostgreSQL's own would be `numeric`), and the average or sum of
    /// values that are not numbers 0 (SQLite reads them as numbers; PostgreSQL refuses).
    func aggregate(_ function: String, _ column: String, of type: AttributeType?) -> String {
        switch self {
        case .sqlite:
            return function + "(" + (type == .decimal ? "CAST(" + column + " AS REAL)" : column) + ")"
        case .postgresql:
            let operand = type == .bool ? "CAST(" + column + " AS integer)" : column
            let isNumber = type.map { [.bool, .int16, .int32, .int64, .int, .double, .float, .decimal, .date].contains($0) } ?? true
            if !isNumber, function == "avg" || function == "sum" {
                return "CAST(sum(CASE WHEN " + column + " IS NULL THEN NULL ELSE 0 END) AS double precision)"
            }
            if type == .data || type == .codable || type == .uuid, function == "max" || function == "min" {
                // PostgreSQL has no max or min of bytea or uuid; both order, as SQLite's blobs do.
                return "(array_agg(" + column + " ORDER BY " + column + (function == "max" ? " DESC" : " ASC")
                    + ") FILTER (WHERE " + column + " IS NOT NULL))[1]"
            }
            switch (function, type) {
            case ("avg", _): return "CAST(avg(" + operand + ") AS double precision)"
            case ("sum", .bool?), ("sum", .int16?), ("sum", .int32?), ("sum", .int64?), ("sum", .int?):
                return "CAST(sum(" + operand + ") AS bigint)"
            default: return function + "(" + operand + ")"
            }
        }
    }
}
