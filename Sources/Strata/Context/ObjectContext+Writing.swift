import Foundation

/// Creating, deleting, and writing changes: inserts grouped by entity through persistent
/// statements, updates of dirty columns only, one SQLite transaction per storage per commit.
extension ObjectContext {
    /// A new object of `type` (or of the entity `T` names), stored in `configuration`'s storage.
    func create<T: StrataObject>(_ type: T.Type, configuration: String?) -> T {
        unsafeDowncast(createObject(type, configuration: configuration), to: T.self)
    }

    /// A new object of a class; not generic, so a run of creates needs no generic metadata.
    @usableFromInline
    func createObject(_ type: StrataObject.Type, configuration: String?) -> StrataObject {
        let target = createTarget(type, configuration: configuration)
        let object = target.layout.type.init()
        let rowID: Int64
        if let table = target.table {
            rowID = nextRowID(table)
        } else {
            rowID = -Int64(created.count + 1)
        }
        adopt(object, rowID: rowID, home: home(target.layout, storage: target.table?.storage ?? -1))
        object.isInserted = true
        object.setInitialValues()
        unwritten.append(object)
        created.append(object)
        register(object)
        return object
    }

    /// The layout and table of a create, cached for runs of creates of one entity.
    private func createTarget(_ type: StrataObject.Type, configuration: String?) -> CreateTarget {
        let identifier = ObjectIdentifier(type)
        if let last = lastCreate, last.type == identifier, last.configuration == configuration { return last }
        guard let layout = core.layout.entity(type.entityName) else {
            misuse("Strata: '\(type.entityName)' is not an entity of model '\(core.history.modelName)'")
        }
        if layout.description.isAbstract { misuse("Strata: '\(layout.name)' is abstract; create one of its subentities instead") }
        var table: StackCore.TableKey?
        do {
            let storage = try core.storage(for: layout.name, configuration: configuration)
            table = StackCore.TableKey(storage: storage.index, table: Int32(layout.tableIndex))
        } catch {
            if deferredError == nil { deferredError = error }
        }
        let target = CreateTarget(type: identifier, configuration: configuration, layout: layout, table: table)
        lastCreate = target
        if let table { touchedTables.insert(table) }
        return target
    }

    /// The next row id of a table, from blocks this context reserves: 1 id, then 2, 4, … up to
    /// 1,024, so small transactions get consecutive ids and large ones take the lock rarely.
    private func nextRowID(_ table: StackCore.TableKey) -> Int64 {
        // A run of creates in one table takes ids from the block at hand, without a lookup.
        if let current = currentRowIDs, current.table == table, !current.block.isEmpty {
            let id = current.block.lowerBound
            currentRowIDs = (table, (id + 1)..<current.block.upperBound)
            return id
        }
        stashCurrentRowIDs()
        var block = reservedIDs[table] ?? 0..<0
        if block.isEmpty, readsUnderWriteLock, !openTransactions.contains(table.storage), !idsFromServer(table.storage) {
            // Ids are reserved under the write lock, after taking those other writers used.
            do { _ = try begin(table.storage) } catch { if deferredError == nil { deferredError = error } }
            block = reservedIDs[table] ?? 0..<0
        }
        if block.isEmpty {
            let size = min(1024, max(1, (blockSizes[table] ?? 0) * 2))
            blockSizes[table] = size
            block = reserveRowIDs(table, count: size)
        }
        let id = block.lowerBound
        reservedIDs[table] = nil
        currentRowIDs = (table, (id + 1)..<block.upperBound)
        return id
    }

    /// A block of up to `count` fresh row ids: from the server when the storage's writers run
    /// side by side, from the stack's counters otherwise. A failure is reported by the commit; the
    /// object meanwhile gets an id no row has.
    private func reserveRowIDs(_ table: StackCore.TableKey, count: Int64) -> Range<Int64> {
        guard let source = core.rowIDSource(of: table.storage) else {
            return core.reserveRowIDs(table, count: count)
        }
        do {
            return try source.reserve(table: core.layout.tables[Int(table.table)].name, count: count)
        } catch {
            if deferredError == nil { deferredError = error }
            let placeholder = -Int64(created.count + 1)
            return placeholder..<(placeholder + 1)
        }
    }

    /// Puts the block of ids at hand back with the others, and records the highest id it gave
    /// out; called before anything reads `reservedIDs` or `highestRowIDs`.
    func stashCurrentRowIDs() {
        guard let current = currentRowIDs else { return }
        currentRowIDs = nil
        reservedIDs[current.table] = current.block
        highestRowIDs[current.table] = current.block.lowerBound - 1
    }

    /// Whether a storage's row ids come from its server (its writers run side by side).
    private func idsFromServer(_ storage: Int32) -> Bool {
        core.rowIDSource(of: storage) != nil
    }

    /// Deletes an object of this context, applying its relationships' delete rules.
    func delete(_ object: StrataObject) {
        guard object.token === token, !object.deleted else { return }
        object.isDeleted = true
        applyDeleteRules(object)
        if !object.isWritten {
            unwritten.removeAll { $0 === object }
            registered[object.key] = nil
            return
        }
        dirtyWritten[object.key] = nil
        log.updated[object.key] = nil
        pendingDeletes[object.key] = object
        if !object.isInserted {
            log.deleted[object.key] = type(of: object).entityName
        }
    }

    /// The writer connection of a storage inside its open SQLite transaction.
    func beginWriting(_ storage: Int32) throws(StrataError) -> any DatabaseConnection {
        try begin(storage)
    }

    private func begin(_ storage: Int32) throws(StrataError) -> any DatabaseConnection {
        try startingAgainIfLost(storage) { () throws(StrataError) in
            let connection = try connection(for: storage)
            if !openTransactions.contains(storage) { try beginImmediate(storage, on: connection) }
            return connection
        }
    }

    /// Opens the write transaction of a storage (see ``DatabaseConnection/beginWriteTransaction()``).
    func beginImmediate(_ storage: Int32, on connection: any DatabaseConnection) throws(StrataError) {
        if tracksConflicts || locksRowsItReads {
            try connection.beginLockingWriteTransaction()
        } else {
            try connection.beginWriteTransaction()
        }
        openTransactions.insert(storage)
        try takeRowIDsOfOthers(storage, on: connection)
    }

    /// Inside a write transaction: when another stack or process committed to the storage since
    /// this stack last knew it, moves the row-id counters past the ids it used, and drops this
    /// context's reserved ids below them. Objects created before the lock (in an unsafe
    /// transaction) keep their ids; one that another writer took fails its commit.
    private func takeRowIDsOfOthers(_ storage: Int32, on connection: any DatabaseConnection) throws(StrataError) {
        // A server whose writers run side by side hands out every id itself.
        guard !connection.writesSideBySide else { return }
        let count = try Self.commitCount(connection)
        guard core.knownCommitCount(storage) != count, let handle = core.storages.first(where: { $0.index == storage }) else { return }
        let floors = try StoreOpener.nextRowIDs(connection, handle: handle, core: core)
        core.raiseRowIDs(storage: storage, to: floors)
        core.setKnownCommitCount(storage, count)
        stashCurrentRowIDs()
        for (table, block) in reservedIDs where table.storage == storage {
            if let floor = floors[table.table], block.lowerBound < floor { reservedIDs[table] = nil }
        }
    }

    /// Writes every pending change inside the open SQLite transactions (opening them first).
    ///
    /// In an unsafe transaction, objects in conflict with the store are not written: a commit
    /// throws the conflict, while a read that flushes first goes on and sees the stored values.
    func flush(forCommit: Bool = false) throws(StrataError) {
        guard kind == .transaction,
              !(unwritten.isEmpty && dirtyWritten.isEmpty && pendingDeletes.isEmpty && changedToMany.isEmpty && deletedLinks.isEmpty) else { return }
        if let deferredError { throw deferredError }
        // A read that writes first (a fetch inside `fetchEach`'s closure) ends the guarded reads
        // around it, which succeeded so far: a failure must never take back what is written now.
        if guardedReads?.isEmpty == false { endGuardedReads(failed: false) }
        let conflicts = try resolveConflicts()
        if forCommit, !conflicts.isEmpty { throw .mergeConflict(objects: conflicts.map(\.description)) }
        try insertUnwritten()
        try updateDirty(skipping: Set(conflicts.map(\.key)))
        try flushRelationships()
        try deletePending()
    }

    /// Inserts the new objects, a run of statements per entity and storage (a server backend
    /// sends each run's rows together): objects of one entity keep their order of creation.
    private func insertUnwritten() throws(StrataError) {
        var currentLayout: EntityLayout?
        var currentStorage: Int32 = -1
        var statement: (any DatabaseStatement)?
        var firstColumn: Int32 = 2
        for object in WriteRuns.grouped(unwritten, by: { WriteRuns.EntityKey(object: $0) }) {
            guard let layout = object.layout else { continue }
            // A run of one entity in one storage shares a statement; each storage has its own.
            if layout !== currentLayout || object.key.storage != currentStorage {
                let connection = try begin(object.key.storage)
                let next = try connection.batchedStatement(layout.insertWrite)
                statement = next
                currentLayout = layout
                currentStorage = object.key.storage
                firstColumn = layout.entityCode == nil ? 2 : 3
            }
            guard let statement else { continue }
            statement.reset()
            statement.bind(object.rowID, at: 1)
            if let code = layout.entityCode { statement.bind(code, at: 2) }
            var binder = ColumnBinder(statement: statement, firstParameter: firstColumn)
            object.bindColumns(to: &binder)
            try binder.checkEncoding()
            try statement.step()
            object.didWrite(layout)
        }
        unwritten.removeAll(keepingCapacity: true)
    }

    /// Writes the changed columns of changed objects, a run of statements per set of columns.
    private func updateDirty(skipping conflicts: Set<ObjectKey>) throws(StrataError) {
        var changed = dirtyWritten.values.filter { $0.layout != nil && !$0.dirty.isEmpty && !conflicts.contains($0.key) }
        // On a server whose writers run side by side, in key order, so that writers changing the
        // same rows lock them in the same order (SQLite's single writer needs no order).
        if changed.contains(where: { idsFromServer($0.key.storage) }) {
            changed.sort { ($0.key.storage, $0.key.table, $0.key.rowID) < ($1.key.storage, $1.key.table, $1.key.rowID) }
        }
        for object in WriteRuns.grouped(changed, by: { WriteRuns.UpdateKey(object: $0) }) {
            guard let layout = object.layout else { continue }
            let shape = UpdateShape(layout: ObjectIdentifier(layout), columns: object.dirty)
            let write: BatchedWrite
            if let cached = updateWrites[shape] {
                write = cached
            } else {
                write = .update(layout.table, columns: object.dirty.ordinals.map { layout.columns[$0].written }, key: StoreLayout.idColumn)
                updateWrites[shape] = write
            }
            let statement = try begin(object.key.storage).batchedStatement(write)
            var binder = ColumnBinder(statement: statement, columns: object.dirty)
            object.bindColumns(to: &binder)
            try binder.checkEncoding()
            statement.bind(object.rowID, at: binder.nextParameter)
            try statement.step()
            // What the store holds now, for the next conflict check.
            if tracksConflicts { originals[object.key] = Self.currentValues(of: object) }
            object.didWrite(layout)
        }
        // Objects in conflict stay changed, for the commit to report.
        if conflicts.isEmpty { dirtyWritten.removeAll() } else { dirtyWritten = dirtyWritten.filter { conflicts.contains($0.key) } }
    }

    /// Deletes the rows of deleted objects, a run of statements per table.
    private func deletePending() throws(StrataError) {
        for object in WriteRuns.grouped(Array(pendingDeletes.values), by: { WriteRuns.EntityKey(object: $0) }) {
            guard let layout = object.layout else { continue }
            let statement = try begin(object.key.storage).batchedStatement(layout.deleteWrite)
            statement.bind(object.rowID, at: 1)
            try statement.step()
            registered[object.key] = nil
        }
        pendingDeletes.removeAll()
    }

    /// Writes everything and commits; on any failure rolls back entirely and throws.
    func commit() throws(StrataError) -> CommitSummary {
        let summary: CommitSummary
        var hooks: [any CommitHook] = []
        do {
            try validate()
            try flush(forCommit: true)
            try persistSequences()
            hooks = try runCommitHooks()
            summary = summarize()
            // Each store counts a commit that changed something inside it; the COMMITs run under
            // the stack's commit log, which then holds each storage's part, so readers can tell
            // which commits a snapshot holds.
            var parts: [Int32: CommitLog.Part] = [:]
            if !summary.isEmpty {
                for storage in openTransactions {
                    let part = openTransactions.count == 1 ? summary : summary.part(of: storage)
                    parts[storage] = CommitLog.Part(counter: try countCommit(storage, part), summary: part)
                }
            }
            // Built only when someone listens to `DataStack.changes`.
            let changes = summary.isEmpty || !core.changes.hasSubscribers ? nil : publicChanges(relationshipsChanged: summary.relationshipsChanged)
            var sideBySide = !openTransactions.isEmpty
            for storage in openTransactions where !(try connection(for: storage).writesSideBySide) { sideBySide = false }
            try core.commits.commit(parts, underLock: !sideBySide, { () throws(StrataError) in
                for storage in openTransactions.sorted() {
                    try connection(for: storage).commit()
                }
            }, published: { if let changes { core.changes.publish(changes) } })
            openTransactions.removeAll()
        } catch {
            rollback()
            throw Self.translate(error)
        }
        log = ChangeLog()
        for hook in hooks { hook.didCommit() }
        for object in created { object.isInserted = false }
        created.removeAll()
        touchedTables.removeAll()
        return summary
    }

    /// Undoes everything: the open SQLite transactions and every object of the context.
    ///
    /// The commit counts this stack knew are forgotten for those storages: a commit that failed
    /// after counting itself would otherwise leave a count the store never reached, and when
    /// another writer then reached it, this stack would take that writer's ids for ones it knew.
    func rollback() {
        for storage in openTransactions {
            try? connection(for: storage).rollback()
            core.forgetKnownCommitCount(storage)
        }
        openTransactions.removeAll()
        reset()
    }

    /// The serialization failure or deadlock that aborted one of this context's open write
    /// transactions, if one did (the server then refuses the rest of the transaction).
    var abortingConflict: StrataError? {
        for storage in openTransactions.sorted() {
            if let error = connections[storage]?.transactionAbortedBy, error.conflict != nil { return error }
        }
        return nil
    }

    /// Required attributes of new objects must have been given a value.
    private func validate() throws(StrataError) {
        if let deferredError { throw deferredError }
        try validateRelationships()
        if let deferredError { throw deferredError }
        for object in created where !object.deleted {
            guard let layout = object.layout else { continue }
            if let ordinal = object.firstUnsetRequiredColumn(layout) {
                throw .missingValue(entity: layout.name, attribute: layout.columns[ordinal].property)
            }
        }
    }

    /// What this commit changed, as the values `DataStack.changes` delivers.
    private func publicChanges(relationshipsChanged: Bool) -> CommitChanges {
        var changes = CommitChanges()
        changes.relationshipsChanged = relationshipsChanged
        for object in created where !object.deleted {
            guard let layout = object.layout else { continue }
            changes.entities[layout.name, default: .init()].inserted.append(AnyObjectID(key: object.key, entityName: layout.name))
        }
        for (key, object) in log.updated where !object.isInserted && !object.deleted {
            guard let layout = object.layout else { continue }
            let names = (log.changedColumns[key]?.ordinals ?? []).compactMap { $0 < layout.columns.count ? layout.columns[$0].property : nil }
            changes.entities[layout.name, default: .init()].updated[AnyObjectID(key: key, entityName: layout.name)] = Set(names)
        }
        for (key, entity) in log.deleted {
            changes.entities[entity, default: .init()].deleted.append(AnyObjectID(key: key, entityName: entity))
        }
        for (key, names) in log.toMany {
            guard let object = registered[key], !object.isInserted, !object.deleted, let layout = object.layout else { continue }
            changes.entities[layout.name, default: .init()].updated[AnyObjectID(key: key, entityName: layout.name), default: []].formUnion(names)
        }
        return changes
    }

    /// Marks the commit in its store, inside the open transaction: adds one to the store's commit
    /// count and returns the new count, or, on a server whose writers run side by side, returns
    /// the transaction's id (see ``CommitLog``), telling other stacks which tables `part` changed.
    private func countCommit(_ storage: Int32, _ part: CommitSummary) throws(StrataError) -> Int64 {
        let connection = try begin(storage)
        if connection.writesSideBySide {
            let id = try connection.markCommit(tables: changedTables(part))
            core.setKnownCommitCount(storage, id)
            return id
        }
        let table = SQLFragment.quote(SchemaSQL.metadataTable)
        let integer = connection.dialect.integer
        let statement = try connection.cachedStatement(
            "INSERT INTO " + table + " (key, value) VALUES ('commits', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(" + table
            + ".value AS \(integer)) + 1 RETURNING CAST(value AS \(integer))")
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        let count = statement.row.int64(0)
        core.setKnownCommitCount(storage, count)
        return count
    }

    /// The names of the tables whose rows `part` inserted, updated or deleted; nil when it changed
    /// relationships, whose other sides are objects of other tables.
    private func changedTables(_ part: CommitSummary) -> [String]? {
        guard !part.relationshipsChanged, part.toMany.isEmpty else { return nil }
        var tables = Set(part.inserted.map(\.table))
        tables.formUnion(part.updated.keys.map(\.table))
        tables.formUnion(part.deleted.keys.map(\.table))
        return tables.sorted().map { core.layout.tables[Int($0)].name }
    }

    /// Records each touched table's highest row id, so ids of deleted rows are never handed out again.
    private func persistSequences() throws(StrataError) {
        stashCurrentRowIDs()
        for table in touchedTables where !idsFromServer(table.storage) {
            guard let highest = highestRowIDs[table] else { continue }
            let name = core.layout.tables[Int(table.table)].name
            let connection = try begin(table.storage)
            let sequences = SQLFragment.quote(SchemaSQL.sequenceTable)
            let statement = try connection.cachedStatement(
                "INSERT INTO " + sequences + " (name, value) VALUES (?, ?) "
                + "ON CONFLICT (name) DO UPDATE SET value = " + connection.dialect.greatest([sequences + ".value", "excluded.value"]))
            statement.bind(.text(name), at: 1)
            statement.bind(highest + 1, at: 2)
            try statement.step()
        }
    }

    /// The commit's changes as values: updated objects carry every column for the main context.
    private func summarize() -> CommitSummary {
        var summary = CommitSummary()
        summary.relationshipsChanged = relationshipsChanged
        relationshipsChanged = false
        countChecks.removeAll()
        denials.removeAll()
        summary.inserted = created.compactMap { $0.deleted ? nil : $0.key }
        summary.deleted = log.deleted
        for (key, object) in log.updated where !object.isInserted {
            guard let layout = object.layout else { continue }
            var binder = ColumnBinder(capturingColumns: layout.columns.count)
            object.bindColumns(to: &binder)
            summary.updated[key] = (layout.name, binder.captured, log.changedColumns[key] ?? ColumnSet())
        }
        for (key, names) in log.toMany {
            guard let object = registered[key], !object.isInserted, !object.deleted, let layout = object.layout else { continue }
            summary.toMany[key] = (layout.name, names)
        }
        return summary
    }

    /// SQLite's unique-constraint failures become ``StrataError/uniquenessViolation(entity:attributes:)``.
    static func translate(_ error: StrataError) -> StrataError {
        if let conflict = error.conflict { return .transactionConflict(code: conflict.code, message: conflict.message, attempts: 1) }
        guard case .sqlite(let code, let message, _) = error, code == 2067 || code == 1555,
              let range = message.range(of: "constraint failed: ") else { return error }
        let columns = message[range.upperBound...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let table = columns.first.map { String($0.split(separator: ".").first ?? "") } ?? ""
        return .uniquenessViolation(entity: table, attributes: columns.map { String($0.split(separator: ".").last ?? "") })
    }
}
