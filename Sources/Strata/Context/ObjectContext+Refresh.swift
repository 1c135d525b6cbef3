/// Re-reading registered objects from the store: the main context catching up with commits it did
/// not see, and an unsafe transaction merging what others committed since it read its objects.
extension ObjectContext {
    /// Reads the stored row of each object, in chunks, and passes it with the row's kind; returns
    /// the keys whose rows exist.
    private func readStoredRows(of objects: [StrataObject], locking: Bool = false,
                                _ each: (StrataObject, FetchPlan.Kind, DatabaseRow) -> Void) throws(StrataError) -> Set<ObjectKey> {
        let byKey = Dictionary(objects.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        var seen: Set<ObjectKey> = []
        try forEachStoredRow(Array(byKey.keys), locking: locking) { key, plan, row in
            guard let kind = plan.kind(of: row), let object = byKey[key] else { return }
            seen.insert(key)
            each(object, kind, row)
        }
        return seen
    }

    /// Reads the rows of some keys, table by table in chunks of ids, through a plan of the
    /// table's root entity (so each row's columns are where its kind says); rows that are gone
    /// are skipped. With `locking`, a server's rows are locked until the transaction ends (each
    /// table's in ascending order, tables in order, so two lockers do not wait for each other).
    func forEachStoredRow(_ keys: [ObjectKey], locking: Bool = false,
                          _ each: (ObjectKey, FetchPlan, DatabaseRow) throws(StrataError) -> Void) throws(StrataError) {
        var groups: [ObjectKey: [Int64]] = [:]
        for key in keys { groups[ObjectKey(storage: key.storage, table: key.table, rowID: 0), default: []].append(key.rowID) }
        for (group, ids) in groups.sorted(by: { ($0.key.storage, $0.key.table) < ($1.key.storage, $1.key.table) }) {
            guard let root = core.layout.entity(core.layout.tables[Int(group.table)].root.name) else { continue }
            try forEachChunk(ids.sorted()) { chunk throws(StrataError) in
                let plan = FetchPlan(entity: root, core: core, where: [Self.inList("t." + SQLFragment.quote(StoreLayout.idColumn), chunk)],
                                     orderBy: [], tweak: Tweak(), joins: [])
                let connection = try connection(for: group.storage)
                let statement = try connection.cachedStatement(plan.sql.text + (locking ? connection.dialect.lockingRows : ""))
                statement.bind(plan.sql.arguments)
                defer { statement.reset() }
                while try statement.step() {
                    let row = statement.row
                    try each(ObjectKey(storage: group.storage, table: group.table, rowID: row.int64(0)), plan, row)
                }
            }
        }
    }

    /// An object's values in column order, as bound (the form `originals` keeps).
    static func currentValues(of object: StrataObject) -> [SQLValue] {
        var binder = ColumnBinder(capturingColumns: object.layout?.columns.count ?? 0)
        object.bindColumns(to: &binder)
        return binder.captured
    }

    /// Sets every column of an object from values in column order, without marking anything changed.
    static func setValues(_ values: [SQLValue], of object: StrataObject) {
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: values.count) { identity in
            for column in identity.indices { identity[column] = Int32(column) }
            RowReader.reading(values: values, map: UnsafeBufferPointer(identity)) { object.readColumns(&$0) }
        }
    }

    /// After a re-read: to-many relationships reload on next use, and objects whose rows are gone
    /// are marked deleted and forgotten.
    private func settle(_ objects: [StrataObject], seen: Set<ObjectKey>) {
        for object in objects {
            object.toManyKeys = nil
            noteObservedChange(object, columns: ColumnSet(), relationships: true)
            if !seen.contains(object.key) { forgetDeleted(object) }
        }
    }

    /// Marks an object whose row is gone as deleted and forgets it.
    private func forgetDeleted(_ object: StrataObject) {
        object.deleted = true
        noteObservedChange(object, columns: ColumnSet(), deleted: true)
        registered[object.key] = nil
        dirtyWritten[object.key] = nil
        originals[object.key] = nil
    }

    /// Main context: re-reads every registered object of a storage (those with `keys`, when
    /// given) from the open snapshot: new
    /// values in place, objects whose rows are gone marked deleted, to-many relationships
    /// reloaded on use.
    /// `changed`, when given, is told each object whose values changed, with the changed
    /// columns, and each object whose row is gone, with nil.
    /// Returns how many objects it read again.
    @discardableResult
    func refreshRegistered(storage: Int32, only keys: Set<ObjectKey>? = nil, changed: ((StrataObject, ColumnSet?) -> Void)? = nil) throws(StrataError) -> Int {
        let objects = keys.map { $0.compactMap { registered[$0] } } ?? registered.values.filter { $0.key.storage == storage }
        let seen = try readStoredRows(of: objects) { object, kind, row in
            let compares = changed != nil || object.isObserved
            let before = compares ? Self.currentValues(of: object) : []
            kind.map.withUnsafeBufferPointer { map in
                RowReader.reading(row, map: map) { object.readColumns(&$0) }
            }
            guard compares else { return }
            let after = Self.currentValues(of: object)
            var columns = ColumnSet()
            for ordinal in 0..<min(before.count, after.count) where !before[ordinal].isSameStoredValue(as: after[ordinal]) {
                columns.insert(ordinal)
            }
            guard columns != ColumnSet() else { return }
            changed?(object, columns)
            noteObservedChange(object, columns: columns)
        }
        if let changed {
            for object in objects where !seen.contains(object.key) { changed(object, nil) }
        }
        settle(objects, seen: seen)
        // An object whose new row does not decode leaves the map, so the next snapshot does not
        // meet it again; a fetch reads it anew.
        try throwReadFailures(forgetting: true)
        return objects.count
    }

    /// Unsafe transaction: brings every registered object to the stored state, keeping the
    /// values this transaction changed and has not committed (CoreStore's
    /// `refreshAndMergeAllObjects`). Those changes are then based on what is stored, so they do
    /// not conflict at commit.
    func refreshAndMergeAll() throws(StrataError) {
        let objects = registered.values.filter { $0.isWritten && !$0.deleted }
        let seen = try readStoredRows(of: objects) { object, kind, row in
            let stored = kind.map.map { row.value($0) }
            var merged = stored
            if object.dirty.isEmpty {
                // Its next change records the values read now.
                originals[object.key] = nil
            } else {
                let current = Self.currentValues(of: object)
                for ordinal in object.dirty.ordinals where ordinal < merged.count { merged[ordinal] = current[ordinal] }
                originals[object.key] = stored
            }
            Self.setValues(merged, of: object)
            noteObservedChange(object, columns: nil)
        }
        settle(objects, seen: seen)
        flushObservation()
        try throwReadFailures(forgetting: false)
    }

    /// An object whose change conflicts with the store under the `.error` policy.
    struct Conflict {
        let key: ObjectKey
        /// `Entity #id (attribute, ...)` or `Entity #id (deleted)`.
        let description: String
    }

    /// Unsafe transaction, before its updates are written: compares each changed object with
    /// what is stored now. Attributes others changed that this transaction did not take the
    /// stored value; attributes both changed follow the merge policy, and under `.error` the
    /// objects are returned, in key order, unchanged. Runs inside the write transaction, so
    /// nothing can change between the check and the writes.
    func resolveConflicts() throws(StrataError) -> [Conflict] {
        guard tracksConflicts, !dirtyWritten.isEmpty else { return [] }
        let objects = dirtyWritten.values.filter { originals[$0.key] != nil }
        for storage in Set(objects.map(\.key.storage)) { _ = try beginWriting(storage) }
        var conflicts: [Conflict] = []
        let seen = try readStoredRows(of: objects, locking: true) { object, kind, row in
            guard let original = originals[object.key] else { return }
            let stored = kind.map.map { row.value($0) }
            var current = Self.currentValues(of: object)
            var conflicting: [Int] = []
            for ordinal in 0..<min(stored.count, original.count, current.count) where !stored[ordinal].isSameStoredValue(as: original[ordinal]) {
                // Changed by both is a conflict even when the values agree: two increments of a
                // counter agree and still lose one.
                if object.dirty.contains(ordinal) {
                    conflicting.append(ordinal)
                } else {
                    current[ordinal] = stored[ordinal]
                }
            }
            if !conflicting.isEmpty {
                switch mergePolicy {
                case .error:
                    let names = conflicting.map { object.layout?.columns[$0].property ?? "#\($0)" }
                    conflicts.append(Conflict(key: object.key, description: "\(object.layout?.name ?? "?") #\(object.rowID) (\(names.joined(separator: ", ")))"))
                    return
                case .keepChanges:
                    break
                case .keepStore:
                    for ordinal in conflicting {
                        current[ordinal] = stored[ordinal]
                        object.dirty.remove(ordinal)
                    }
                }
            }
            Self.setValues(current, of: object)
            originals[object.key] = stored
        }
        try throwReadFailures(forgetting: false)
        for object in objects where !seen.contains(object.key) {
            if mergePolicy == .error {
                conflicts.append(Conflict(key: object.key, description: "\(object.layout?.name ?? "?") #\(object.rowID) (deleted)"))
            } else {
                forgetDeleted(object)
            }
        }
        return conflicts.sorted { ($0.key.storage, $0.key.table, $0.key.rowID) < ($1.key.storage, $1.key.table, $1.key.rowID) }
    }
}

extension SQLValue {
    /// Whether two values are stored alike: doubles compared by their bits (so a NaN equals
    /// itself and -0.0 differs from 0.0), a NaN and the bytes SQLite stores it as being the same.
    func isSameStoredValue(as other: SQLValue) -> Bool {
        switch (self, other) {
        case (.real(let a), .real(let b)): return a.bitPattern == b.bitPattern
        case (.real(let a), .blob(let bytes)), (.blob(let bytes), .real(let a)):
            return a.isNaN && StoredDouble.value(of: bytes)?.bitPattern == a.bitPattern
        default: return self == other
        }
    }
}
