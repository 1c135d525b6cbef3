// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import Strata

/// The SQL functions Strata's queries call that PostgreSQL does not have under those names,
/// created in a store's database when it is opened (once: an existing one is left as it is).
enum PostgreSQLFunctions {
    /// Creates `strata_fold(text)` when the database has none: the text lowercased by Unicode
    /// rules, as Swift's `lowercased()` (which SQLite connections register under that name) does.
    /// PostgreSQL's `lower()` follows the collation, and Strata's text columns are `COLLATE "C"`
    /// (byte order), under which it folds ASCII only: so the function lowers under ICU's root
    /// collation, or the C.UTF-8 locale where the server was built without ICU.
    static func create(on connection: any DatabaseConnection) throws(StrataError) {
        guard try firstText(connection, "SELECT CAST(to_regprocedure('strata_fold(text)') AS text)") == nil else { return }
        let collation = try firstText(connection, """
            SELECT collname FROM pg_collation WHERE collname IN ('und-x-icu', 'C.utf8', 'C.UTF-8') ORDER BY collname = 'und-x-icu' DESC LIMIT 1
            """)
        // The name comes from the list above, so it needs no escaping beyond the quotes.
        let lowered = collation.map { "lower($1 COLLATE \"" + $0 + "\")" } ?? "lower($1)"
        try connection.execute("CREATE FUNCTION strata_fold(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT "
                               + lowered + " $$")
    }

    /// The first column of the first row, as text; nil when there is none or it is NULL.
    private static func firstText(_ connection: any DatabaseConnection, _ sql: String) throws(StrataError) -> String? {
        let statement = try connection.prepare(sql)
        guard try statement.step() else { return nil }
        return String(sqlValue: statement.row.value(0))
    }
}
#endif
