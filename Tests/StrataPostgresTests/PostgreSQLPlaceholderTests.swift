// Compiled with the PostgreSQL trait only (see Package.swift).
#if PostgreSQL
@testable import StrataPostgres
import Testing

@Suite("PostgreSQL placeholders")
struct PostgreSQLPlaceholderTests {
    @Test(arguments: [
        ("SELECT * FROM t WHERE a = ? AND b IN (?, ?)", "SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)", 3),
        (#"SELECT "why?" FROM "t"" ?" WHERE x = ?"#, #"SELECT "why?" FROM "t"" ?" WHERE x = $1"#, 1),
        ("ALTER TABLE t ADD COLUMN c text DEFAULT 'what?''s ?'", "ALTER TABLE t ADD COLUMN c text DEFAULT 'what?''s ?'", 0),
        ("SELECT ? -- a comment?\n, ? /* another? */ , ?", "SELECT $1 -- a comment?\n, $2 /* another? */ , $3", 3),
        ("SELECT 'ü?', ?", "SELECT 'ü?', $1", 1),
        ("", "", 0),
    ])
    func numbersPlaceholdersOutsideQuotesAndComments(sql: String, expected: String, count: Int) {
        let numbered = PostgreSQLPlaceholders.numbered(sql)
        #expect(numbered.text == expected)
        #expect(numbered.count == count)
    }
}
#endif
