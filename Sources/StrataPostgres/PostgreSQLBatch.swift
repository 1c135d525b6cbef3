// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import PostgresNIO
import Strata

/// The rows of a ``BatchedWrite``, kept by a ``PostgreSQLConnection`` and sent as one statement
/// with an array parameter per column (`INSERT ... SELECT * FROM unnest($1, $2, ...)`, `UPDATE ...
/// FROM unnest(...)`, `DELETE ... WHERE id = ANY($1)`), so that writing 10,000 rows costs one
/// round trip instead of 10,000. A single row goes as the one row's statement, which costs the
/// server less to plan (a one-object transaction commits about a third faster).
///
/// Stepping adds the bound row. The connection sends the rows before it runs any other statement
/// (so every read sees them, and their order with every other statement is kept), before it
/// commits, and when ``limit`` rows are waiting; a rollback drops them. Rows whose values are not
/// all in their columns' forms (see ``PostgreSQLArray``) are sent one statement each, so the
/// server reads and refuses them exactly as it does a single row's.
final class PostgreSQLBatch: PostgreSQLBinding {
    /// The most rows sent in one statement.
    static let limit = 10_000

    private unowned let connection: PostgreSQLConnection
    let write: BatchedWrite
    /// One row's statement, placeholders numbered.
    private let rowSQL: String
    /// The same, to be prepared: a decimal's parameter is its text (`CAST(CAST($3 AS text) AS
    /// numeric)`), since a prepared statement's values go in binary and a decimal's text is not
    /// `numeric`'s binary form.
    private let preparedRowSQL: String
    /// The parameters' types, as a prepared statement sends them.
    private let parameterTypes: [PostgreSQLArray.Element]
    /// The statement of many rows.
    private let batchSQL: String
    /// The row being bound.
    var arguments: [SQLValue]
    /// The rows waiting, a column each.
    private var columns: [[SQLValue]]
    /// The ids of the rows waiting, for updates: a second update of a row waits for the first
    /// to be sent (one `UPDATE ... FROM` changes a row once).
    private var updatedIDs: Set<Int64> = []

    init(connection: PostgreSQLConnection, write: BatchedWrite) {
        self.connection = connection
        self.write = write
        rowSQL = PostgreSQLPlaceholders.numbered(write.sql).text
        let types = write.columns.map { PostgreSQLArray.Element($0.type) }
        parameterTypes = types
        preparedRowSQL = PostgreSQLPlaceholders.numbered(write.sql) { index in
            types.indices.contains(index - 1) && types[index - 1] == .numeric ? "CAST(CAST($\(index) AS text) AS numeric)" : "$\(index)"
        }.text
        batchSQL = Self.statement(write)
        arguments = Array(repeating: .null, count: write.columns.count)
        columns = Array(repeating: [], count: write.columns.count)
    }

    /// How many rows wait to be sent.
    var count: Int { columns.first?.count ?? 0 }

    /// The statement writing every row of the arrays bound to `$1`, `$2`, ...
    static func statement(_ write: BatchedWrite) -> String {
        let arrays = write.columns.enumerated().map { index, column in
            "$\(index + 1)::" + PostgreSQLArray.Element(column.type).arrayTypeName
        }.joined(separator: ", ")
        let table = SQLIdentifier.quote(write.table)
        switch write.kind {
        case .insert:
            let names = write.columns.map { SQLIdentifier.quote($0.name) }.joined(separator: ", ")
            return "INSERT INTO " + table + " (" + names + ") SELECT * FROM unnest(" + arrays + ")"
        case .update:
            let sources = write.columns.indices.map { "c\($0)" }
            let assignments = write.columns.dropLast().enumerated().map { index, column in
                SQLIdentifier.quote(column.name) + " = strata_rows." + sources[index]
            }.joined(separator: ", ")
            let key = SQLIdentifier.quote(write.columns[write.columns.count - 1].name)
            return "UPDATE " + table + " AS strata_target SET " + assignments + " FROM unnest(" + arrays + ") AS strata_rows("
                + sources.joined(separator: ", ") + ") WHERE strata_target." + key + " = strata_rows." + sources[sources.count - 1]
        case .delete:
            return "DELETE FROM " + table + " WHERE " + SQLIdentifier.quote(write.columns[0].name) + " = ANY(" + arrays + ")"
        }
    }

    func reset() {
        for index in arguments.indices { arguments[index] = .null }
    }

    /// Adds the bound row; sends the rows when ``limit`` of them wait. Never returns a row.
    @discardableResult
    func step() throws(StrataError) -> Bool {
        try connection.willAdd(to: self)
        if write.kind == .update, case .integer(let id) = arguments[arguments.count - 1], !updatedIDs.insert(id).inserted {
            try send()
            try connection.willAdd(to: self)
            updatedIDs.insert(id)
        }
        for index in arguments.indices { columns[index].append(arguments[index]) }
        if count >= Self.limit { try send() }
        return false
    }

    /// Sends the waiting rows (the connection calls this before its next other statement).
    func send() throws(StrataError) {
        _ = try send(returning: nil)
    }

    /// Sends the waiting rows in a statement that also returns one row of `expression`, such as a
    /// commit's last rows and its mark: one round trip for both. `expression` binds no parameter.
    /// Nil when no rows waited or they went one statement each; `expression` is then the
    /// caller's to select.
    func send(returning expression: String?) throws(StrataError) -> PostgreSQLConnection.Result? {
        connection.didSend(self)
        guard count > 0 else { return nil }
        let rows = columns
        discard()
        // One row: its own statement, which the server plans in a fraction of the arrays' time,
        // prepared (planned once per connection) where it can be.
        if rows.first?.count == 1 {
            let values = rows.map { $0[0] }
            let oneInsert = write.kind == .insert
            let prepared = Self.statement(preparedRowSQL, returning: expression, oneInsertedRow: oneInsert)
            if let result = try connection.runPrepared(prepared, values, types: parameterTypes, as: write.sql) {
                return expression == nil ? nil : result
            }
            return try send(Self.statement(rowSQL, returning: expression, oneInsertedRow: oneInsert), PostgreSQLValues.bindings(values),
                            returning: expression)
        }
        var bindings = PostgresBindings(capacity: rows.count)
        for (column, values) in zip(write.columns, rows) {
            guard let array = PostgreSQLArray(column.type, values: values) else {
                try sendOneByOne(rows)
                return nil
            }
            bindings.append(array, context: .default)
        }
        return try send(Self.statement(batchSQL, returning: expression, oneInsertedRow: false), bindings, returning: expression)
    }

    /// `statement`, returning one row of `expression` when there is one: by `RETURNING` when the
    /// statement inserts exactly one row (cheaper for the server), otherwise as
    /// `WITH strata_write AS (statement) SELECT expression`, which returns its row whatever the
    /// statement changed.
    static func statement(_ statement: String, returning expression: String?, oneInsertedRow: Bool) -> String {
        guard let expression else { return statement }
        return oneInsertedRow ? statement + " RETURNING " + expression : "WITH strata_write AS (" + statement + ") SELECT " + expression
    }

    /// Sends `sql` with its `bindings`; its rows when it returns `expression`'s.
    private func send(_ sql: String, _ bindings: PostgresBindings, returning expression: String?) throws(StrataError)
        -> PostgreSQLConnection.Result? {
        let result = try connection.send(PostgresQuery(unsafeSQL: sql, binds: bindings), as: write.sql)
        return expression == nil ? nil : result
    }

    /// Forgets the waiting rows (their transaction rolled back).
    func discard() {
        for index in columns.indices { columns[index].removeAll(keepingCapacity: true) }
        updatedIDs.removeAll(keepingCapacity: true)
    }

    /// Sends each row as the statement of one row.
    private func sendOneByOne(_ rows: [[SQLValue]]) throws(StrataError) {
        let count = rows.first?.count ?? 0
        for row in 0..<count {
            let values = rows.map { $0[row] }
            try connection.send(PostgresQuery(unsafeSQL: rowSQL, binds: PostgreSQLValues.bindings(values)), as: write.sql)
        }
    }

    /// A write returns no rows.
    var row: DatabaseRow { DatabaseRow(values: []) }

    var columnCount: Int32 { 0 }

    func columnName(_ index: Int32) -> String { "" }
}
#endif
