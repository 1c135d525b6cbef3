// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import Strata

/// A statement of a ``PostgreSQLConnection``, in the shape the runtime drives every backend:
/// bind values by index, step through the rows, read the current one.
///
/// The statement runs when it is first stepped, with the values bound so far, and keeps its rows
/// until it is reset (a fetch reads all of its rows anyway). The `?` placeholders Strata writes are
/// numbered for PostgreSQL once, when the statement is made.
final class PostgreSQLStatement: PostgreSQLBinding {
    private unowned let connection: PostgreSQLConnection
    /// The SQL as Strata wrote it.
    let sql: String
    /// The SQL with numbered placeholders.
    private let numberedSQL: String
    var arguments: [SQLValue]
    private var result: PostgreSQLConnection.Result?
    private var position = -1

    init(connection: PostgreSQLConnection, sql: String) {
        self.connection = connection
        self.sql = sql
        let numbered = PostgreSQLPlaceholders.numbered(sql)
        numberedSQL = numbered.text
        arguments = Array(repeating: .null, count: numbered.count)
    }

    func reset() {
        for index in arguments.indices { arguments[index] = .null }
        result = nil
        position = -1
    }

    @discardableResult
    func step() throws(StrataError) -> Bool {
        if result == nil {
            result = try connection.run(numberedSQL, arguments, as: sql)
            position = -1
        }
        guard let result, position + 1 < result.rows.count else { return false }
        position += 1
        return true
    }

    var row: DatabaseRow {
        guard let result, result.rows.indices.contains(position) else { return DatabaseRow(values: []) }
        return DatabaseRow(values: result.rows[position])
    }

    var columnCount: Int32 { Int32(result?.columns.count ?? 0) }

    func columnName(_ index: Int32) -> String {
        guard let columns = result?.columns, columns.indices.contains(Int(index)) else { return "" }
        return columns[Int(index)]
    }
}

/// A PostgreSQL statement's binds: each value kept as the `SQLValue` it is (the server gives each
/// parameter the type its place in the statement needs), in ``arguments``.
protocol PostgreSQLBinding: DatabaseStatement {
    /// The values bound so far, parameter 1 first.
    var arguments: [SQLValue] { get set }
}

extension PostgreSQLBinding {
    func bind(_ value: SQLValue, at index: Int32) {
        let offset = Int(index) - 1
        guard arguments.indices.contains(offset) else { return }
        arguments[offset] = value
    }

    func bind(_ value: Int64, at index: Int32) { bind(.integer(value), at: index) }

    /// Binds a double; PostgreSQL keeps every finite value, infinities and -0.0 exactly, and has
    /// one NaN (a NaN's payload bits are not kept).
    func bind(_ value: Double, at index: Int32) { bind(.real(value), at: index) }

    func bind(_ value: String, at index: Int32) { bind(.text(value), at: index) }

    func bindNull(at index: Int32) { bind(.null, at: index) }
}
#endif
