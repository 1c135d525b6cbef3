// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import NIOCore
import PostgresNIO
import Strata

/// The named statements a connection prepared: a transaction's row writes, which every
/// transaction of the same shape sends again, so that the server parses and plans each once per
/// connection instead of at every statement (for a one-object transaction, about 30% of the
/// server's work: with `pgbench`, one client made 3,883 such transactions a second unprepared and
/// 5,314 prepared). A connection has one user at a time, as its ``PostgreSQLConnection`` has.
final class PreparedStatements {
    /// The most statements one connection prepares; later ones go unprepared.
    static let most = 200

    private var queries: [String: PreparedQuery] = [:]

    /// How many statements are prepared.
    var count: Int { queries.count }

    fileprivate func query(for sql: String) -> PreparedQuery? { queries[sql] }

    fileprivate func add(_ query: PreparedQuery, for sql: String) { queries[sql] = query }
}

extension PostgreSQLConnection {
    /// Runs `sql` (placeholders numbered) as a named statement, prepared on its first use on this
    /// connection (one more round trip, once), with `values` sent in the binary form of `types`,
    /// the columns' types (a decimal as its text, which `sql` casts); errors name `original`. Nil,
    /// having sent nothing, when it cannot run so: through a pooler in transaction mode (a named
    /// statement lives in one server session), a value not in its column's form (see
    /// ``PostgreSQLArray/Element/accepts(_:)``), or ``PreparedStatements/most`` statements
    /// prepared already. The caller then sends it unprepared, and the server reads and refuses
    /// such a value as it does any statement's. The statement's row count is not reported.
    func runPrepared(_ sql: String, _ values: [SQLValue], types: [PostgreSQLArray.Element], as original: String) throws(StrataError) -> Result? {
        guard !sessionless, values.count == types.count,
              zip(types, values).allSatisfy({ type, value in type.accepts(value) }) else { return nil }
        let query: PreparedQuery
        if let known = preparedStatements.query(for: sql) {
            query = known
        } else {
            guard preparedStatements.count < PreparedStatements.most else { return nil }
            prepareToSend(original)
            try willSend()
            query = try answer(to: connection.prepare(query: sql), of: original)
            preparedStatements.add(query, for: sql)
        }
        var bindings: [PostgresData] = []
        bindings.reserveCapacity(values.count)
        for (type, value) in zip(types, values) {
            guard !value.isNull else {
                bindings.append(PostgresData(type: .null, formatCode: .binary, value: nil))
                continue
            }
            var buffer = ByteBuffer()
            _ = type.write(value, into: &buffer)
            bindings.append(PostgresData(type: PostgresDataType(type.oids.element), formatCode: .binary, value: buffer))
        }
        prepareToSend(original)
        try willSend()
        let answer = try answer(to: query.execute(bindings), of: original)
        var columns: [String] = []
        var rows: [[SQLValue]] = []
        rows.reserveCapacity(answer.count)
        for row in answer {
            var values: [SQLValue] = []
            for cell in row {
                if rows.isEmpty { columns.append(cell.columnName) }
                // A prepared statement's rows come in binary, as every statement's do, though
                // postgres-nio labels them with the format of the statement's description (text).
                let binary = PostgresCell(bytes: cell.bytes, dataType: cell.dataType, format: .binary,
                                          columnName: cell.columnName, columnIndex: cell.columnIndex)
                values.append(PostgreSQLValues.value(of: binary))
            }
            rows.append(values)
        }
        return Result(columns: columns, rows: rows, changes: 0)
    }
}

/// The fields of a server's error that Strata reads, from either form postgres-nio gives them in
/// (a prepared statement's errors come in the older form).
struct ServerErrorFields {
    var sqlState: String?
    var severity: String?
    var message: String?
    var detail: String?
    var tableName: String?

    /// The fields of `error`; nil when it is not an error the server sent.
    init?(_ error: any Error) {
        if let error = error as? PSQLError, error.code == .server, let info = error.serverInfo {
            sqlState = info[.sqlState]
            severity = info[.severity]
            message = info[.message]
            detail = info[.detail]
            tableName = info[.tableName]
        } else if case .server(let reply)? = error as? PostgresError {
            sqlState = reply.fields[.sqlState]
            severity = reply.fields[.severity]
            message = reply.fields[.message]
            detail = reply.fields[.detail]
            tableName = reply.fields[.tableName]
        } else {
            return nil
        }
    }
}
#endif
