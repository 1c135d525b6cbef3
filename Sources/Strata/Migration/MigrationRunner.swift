/// Runs a migration's steps on a store's connection, all of them in one SQLite transaction: the
/// store ends at the destination version, or, whatever fails, exactly as it was.
struct MigrationRunner {
    let connection: any DatabaseConnection
    let history: SchemaHistory
    /// The store's file, for error messages.
    let file: String
    /// Told what is done, as it is done.
    let progress: (@Sendable (MigrationProgress) -> Void)?

    /// Runs the plans of every step (``plans(_:history:configuration:file:)`` makes them before
    /// anything is written, so a step that cannot be inferred changes nothing).
    func run(_ plans: [MigrationStepPlan]) throws(StrataError) {
        let total = plans.count
        guard let first = plans.first, let last = plans.last else { return }
        do {
            try connection.beginWriteTransaction()
        } catch {
            let reason: String
            if case .storeBusy = error {
                reason = "the store's write lock is held by another connection or process"
            } else {
                reason = "the store's write lock could not be taken (\(error))"
            }
            throw .migrationFailed(file: file, from: first.sourceVersion, to: last.destinationVersion, reason: reason)
        }
        do {
            for (index, plan) in plans.enumerated() {
                try run(plan, stepIndex: index, stepCount: total)
            }
            try connection.commit()
        } catch {
            try? connection.rollback()
            throw error
        }
        progress?(MigrationProgress(step: total, stepCount: total, sourceVersion: last.sourceVersion, destinationVersion: last.destinationVersion,
                                    isFinished: true))
    }

    /// The plan of each step of `path` (`[V1, V2, V3]` has two).
    static func plans(_ path: [String], history: SchemaHistory, configuration: String, file: String,
                      dialect: SQLDialect = .sqlite) throws(StrataError) -> [MigrationStepPlan] {
        var plans: [MigrationStepPlan] = []
        for (from, to) in zip(path, path.dropFirst()) {
            guard let source = history.version(named: from), let destination = history.version(named: to) else {
                throw .noMigrationPath(file: file, storeVersion: path[0], currentVersion: history.currentVersion.name)
            }
            let plan: MigrationStepPlan
            do {
                plan = try MigrationPlanner(from: source, to: destination, configuration: configuration, dialect: dialect).plan()
            } catch {
                throw .migrationFailed(file: file, from: from, to: to, reason: error.reason)
            }
            for case .customRows(let rows) in plan.operations where history.customStep(from: from, to: to, entity: rows.entity) == nil {
                throw .migrationFailed(file: file, from: from, to: to,
                                       reason: "the app has no custom step for \(rows.entity); implement it in its \(history.modelName)Migrator")
            }
            plans.append(plan)
        }
        return plans
    }

    private func run(_ plan: MigrationStepPlan, stepIndex: Int, stepCount: Int) throws(StrataError) {
        progress?(MigrationProgress(step: stepIndex, stepCount: stepCount, sourceVersion: plan.sourceVersion,
                                    destinationVersion: plan.destinationVersion))
        for operation in plan.operations {
            switch operation {
            case .sql(let statement):
                do {
                    let prepared = try connection.prepare(statement.text)
                    prepared.bind(statement.arguments)
                    while try prepared.step() {}
                } catch {
                    throw .migrationFailed(file: file, from: plan.sourceVersion, to: plan.destinationVersion, reason: "\(error)")
                }
            case .customRows(let rows):
                try runCustomRows(rows, plan: plan, stepIndex: stepIndex, stepCount: stepCount)
            }
        }
    }

    private func runCustomRows(_ rows: CustomRowsOperation, plan: MigrationStepPlan, stepIndex: Int, stepCount: Int) throws(StrataError) {
        let failure = { (reason: String) -> StrataError in
            .migrationFailed(file: file, from: plan.sourceVersion, to: plan.destinationVersion, reason: reason)
        }
        guard let step = history.customStep(from: plan.sourceVersion, to: plan.destinationVersion, entity: rows.entity) else {
            preconditionFailure("plans(_:history:configuration:file:) checked that every custom step exists")
        }
        let q = SQLFragment.quote
        var select = "SELECT " + rows.sourceColumns.map(q).joined(separator: ", ") + " FROM " + q(rows.sourceTable)
        if let codes = rows.sourceCodes {
            select += " WHERE " + q(StoreLayout.entityColumn) + " IN (" + codes.map { _ in "?" }.joined(separator: ", ") + ")"
        }
        var columns = [StoreLayout.idColumn]
        if rows.entityCode != nil { columns.append(StoreLayout.entityColumn) }
        columns += rows.attributeColumns + rows.copiedColumns.map(\.destination)
        let insertSQL = "INSERT INTO " + q(rows.destinationTable) + " (" + columns.map(q).joined(separator: ", ") + ") VALUES ("
            + columns.map { _ in "?" }.joined(separator: ", ") + ")"
        let reader: any DatabaseStatement
        let insert: any DatabaseStatement
        var rowCount = 0
        var idOffset: Int64 = 0
        do {
            if let offset = rows.idOffset {
                let read = try connection.prepare("SELECT " + offset)
                if try read.step() { idOffset = read.row.int64(0) }
            }
            if progress != nil {
                let count = try connection.prepare("SELECT count(*) FROM (" + select + ") AS counted")
                count.bind((rows.sourceCodes ?? []).map { .integer($0) })
                if try count.step() { rowCount = Int(count.row.int64(0)) }
            }
            reader = try connection.prepare(select)
            reader.bind((rows.sourceCodes ?? []).map { .integer($0) })
            insert = try connection.prepare(insertSQL)
        } catch {
            throw failure("\(error)")
        }
        var done = 0
        while true {
            let hasRow: Bool
            do { hasRow = try reader.step() } catch { throw failure("\(error)") }
            guard hasRow else { break }
            var old: [String: SQLValue] = [:]
            for (index, name) in rows.sourceColumns.enumerated() { old[name] = reader.row.value(Int32(index)) }
            let produced: (any MigrationValues)?
            do {
                produced = try step.transform(old)
            } catch {
                throw failure("the custom step for \(rows.entity) threw \(error)")
            }
            done += 1
            guard let produced else { continue }
            var binder = ColumnBinder(capturingColumns: rows.attributeColumns.count)
            produced.bindColumns(to: &binder)
            do { try binder.checkEncoding() } catch { throw failure("the custom step for \(rows.entity) produced a value that \(error)") }
            guard binder.captured.count == rows.attributeColumns.count else {
                throw failure("the custom step for \(rows.entity) gave \(binder.captured.count) values for \(rows.attributeColumns.count) attributes")
            }
            guard case .integer(let id) = old[StoreLayout.idColumn] else { throw failure("a row of \(rows.sourceTable) has no id") }
            var values: [SQLValue] = [.integer(id + idOffset)]
            if let code = rows.entityCode { values.append(.integer(code)) }
            values += binder.captured
            values += rows.copiedColumns.map { column in column.source.flatMap { old[$0] } ?? .null }
            insert.reset()
            insert.bind(values)
            do { _ = try insert.step() } catch { throw failure("\(error)") }
            if done % 1_000 == 0 {
                progress?(MigrationProgress(step: stepIndex, stepCount: stepCount, sourceVersion: plan.sourceVersion,
                                            destinationVersion: plan.destinationVersion, entity: rows.entity, rowsDone: done, rowCount: rowCount))
            }
        }
    }
}
