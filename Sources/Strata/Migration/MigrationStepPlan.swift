/// What one step of a migration does to a storage, in order: SQL statements, and the rows of
/// custom steps, which the app's code produces one by one.
///
/// A plan is built from the two versions' descriptors alone (``MigrationPlanner``), so the same
/// plan is what `strata sql --from --to` prints and what the runtime executes.
public struct MigrationStepPlan: Sendable {
    /// The version the step starts from.
    public let sourceVersion: String
    /// The version it ends at.
    public let destinationVersion: String
    /// The work, in order.
    public let operations: [MigrationOperation]
    /// One line per table changed, saying how: changed in place, rebuilt, created, dropped.
    public let notes: [String]

    /// Whether an app's custom step produces some entity's rows.
    public var isCustom: Bool {
        operations.contains { if case .customRows = $0 { return true } else { return false } }
    }

    /// The SQL of the step, custom steps shown as comments, for people and tools.
    public var sqlText: String {
        operations.map { operation in
            switch operation {
            case .sql(let statement):
                return statement.text + ";" + (statement.arguments.isEmpty ? "" : " -- bound: " + statement.arguments.map(\.description).joined(separator: ", "))
            case .customRows(let rows):
                return "-- custom step: the app's step for \(rows.entity) turns each \(rows.sourceEntity) row of \(rows.sourceTable) "
                    + "into a row of \(rows.destinationTable), keeping its id, or leaves it out"
            }
        }.joined(separator: "\n") + "\n"
    }
}

/// One unit of a migration step.
public enum MigrationOperation: Sendable {
    /// A statement, with its bound values.
    case sql(MigrationStatement)
    /// Rows a custom step produces.
    case customRows(CustomRowsOperation)
}

/// A statement of a migration and the values bound to its `?` placeholders.
public struct MigrationStatement: Sendable, Hashable {
    /// The SQL text.
    public let text: String
    /// The values bound to its placeholders, in order.
    public let arguments: [SQLValue]

    init(_ text: String, _ arguments: [SQLValue] = []) {
        self.text = text
        self.arguments = arguments
    }
}

/// The rows of one entity that a custom step produces: each old row is read whole, handed to the
/// app's step, and the values it returns are inserted with the old row's id, so relationships
/// stay valid.
public struct CustomRowsOperation: Sendable {
    /// The entity of the destination version.
    public let entity: String
    /// The entity of the source version whose rows are read.
    public let sourceEntity: String
    /// The table read (its name before the step).
    public let sourceTable: String
    /// The table written (its temporary name while the step runs).
    public let destinationTable: String
    /// Which rows of the source table are the entity's: `strata_entity` codes, or nil for all.
    let sourceCodes: [Int64]?
    /// The source table's columns, all read.
    let sourceColumns: [String]
    /// The destination's entity code, if its table has one.
    let entityCode: Int64?
    /// The storage keys of the destination entity's attributes, in the order its values bind them.
    let attributeColumns: [String]
    /// Other destination columns (relationships, orders) and the source column each copies, if any.
    let copiedColumns: [(destination: String, source: String?)]
    /// The SQL of the offset added to each row's id, when the rows move into another hierarchy's table.
    let idOffset: String?
}
