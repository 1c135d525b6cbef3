/// Writes of one shape to one table (inserts of one entity, updates of one set of columns,
/// deletes by id) that a backend may send to its server together.
///
/// The runtime drives a batched write as it drives any statement: bind one row's parameters,
/// step, bind the next. SQLite runs ``sql`` at every step (each is a function call in the same
/// process). A server backend, where every statement waits for a round trip, may instead keep the
/// rows and send them as one statement, before any other statement of its connection runs and
/// before it commits, so nothing reads around them and their order with every other statement
/// stays the order the runtime wrote them.
package struct BatchedWrite: Hashable, Sendable {
    /// What the rows do.
    package enum Kind: Hashable, Sendable {
        /// Each row is a new row: its parameters are ``columns``, in order.
        case insert
        /// Each row sets ``columns`` but the last, which is the id of the row to change.
        case update
        /// Each row's one parameter is the id of a row to delete.
        case delete
    }

    /// One parameter of a row: the column it writes (or, for updates and deletes, finds the row by)
    /// and the type of its attribute (nil for ids, entity codes and foreign keys, which are integers).
    package struct Column: Hashable, Sendable {
        /// The column's name in the table.
        package let name: String
        /// The attribute's type, or nil for an integer column that is no attribute.
        package let type: AttributeType?

        /// A column named `name` holding `type`'s values.
        package init(name: String, type: AttributeType?) {
            self.name = name
            self.type = type
        }
    }

    /// What the rows do.
    package let kind: Kind
    /// The table written.
    package let table: String
    /// Each row's parameters, in the order they are bound.
    package let columns: [Column]
    /// The statement that writes one row, with `?` for each of ``columns``.
    package let sql: String

    /// Inserts into `table` of rows holding `columns`.
    package static func insert(into table: String, columns: [Column]) -> BatchedWrite {
        let names = columns.map { SQLIdentifier.quote($0.name) }
        let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
        let sql = "INSERT INTO " + SQLIdentifier.quote(table) + " (" + names.joined(separator: ", ") + ") VALUES (" + placeholders + ")"
        return BatchedWrite(kind: .insert, table: table, columns: columns, sql: sql)
    }

    /// Updates of `columns` of the rows of `table` that `key` finds.
    package static func update(_ table: String, columns: [Column], key: String) -> BatchedWrite {
        let assignments = columns.map { SQLIdentifier.quote($0.name) + " = ?" }.joined(separator: ", ")
        let sql = "UPDATE " + SQLIdentifier.quote(table) + " SET " + assignments + " WHERE " + SQLIdentifier.quote(key) + " = ?"
        return BatchedWrite(kind: .update, table: table, columns: columns + [Column(name: key, type: nil)], sql: sql)
    }

    /// Deletes of the rows of `table` that `key` finds.
    package static func delete(from table: String, key: String) -> BatchedWrite {
        let sql = "DELETE FROM " + SQLIdentifier.quote(table) + " WHERE " + SQLIdentifier.quote(key) + " = ?"
        return BatchedWrite(kind: .delete, table: table, columns: [Column(name: key, type: nil)], sql: sql)
    }
}
