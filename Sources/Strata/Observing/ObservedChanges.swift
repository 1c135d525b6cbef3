/// What the main context applied since monitors last looked, gathered from every commit it
/// caught up with, for monitors to work out what concerns them.
struct ObservedChanges {
    /// How a row changed, over one or more commits.
    struct RowChange {
        /// The row's entity.
        let entity: String
        /// The columns updates changed (by ordinal in the entity's layout); nil when the row was
        /// inserted or deleted, which concerns every column.
        var columns: ColumnSet?
        /// Whether the row was inserted, rather than only updated.
        var isInserted: Bool
        /// Whether the row was deleted.
        var isDeleted: Bool
        /// The to-many relationships (by name) that changed.
        var relationships: Set<String> = []
    }

    /// Changed rows by table, then by row id.
    var rows: [StackCore.TableKey: [Int64: RowChange]] = [:]
    /// Storages whose to-many relationships or link rows changed.
    var relationshipStorages: Set<Int32> = []
    /// Storages changed by commits nobody described (another stack or process): monitors of
    /// them read their lists again.
    var undescribed: Set<Int32> = []
    /// Tables other stacks' commits changed (their notices said which): monitors of them, or
    /// joining them, read their lists again.
    var undescribedTables: Set<StackCore.TableKey> = []
    /// Objects a re-read found changed, with the changed column ordinals; nil columns: deleted.
    var reread: [ObjectKey: (entity: String, columns: ColumnSet?)] = [:]

    var isEmpty: Bool { rows.isEmpty && relationshipStorages.isEmpty && undescribed.isEmpty && undescribedTables.isEmpty && reread.isEmpty }

    /// Whether anything changed in a storage.
    func touches(storage: Int32) -> Bool {
        undescribed.contains(storage) || relationshipStorages.contains(storage) || rows.keys.contains { $0.storage == storage }
            || undescribedTables.contains { $0.storage == storage }
    }

    /// Adds one commit's changes to a storage.
    mutating func add(_ summary: CommitSummary, storage: Int32) {
        for key in summary.inserted where key.storage == storage {
            rows[StackCore.TableKey(storage: key.storage, table: key.table), default: [:]][key.rowID] =
                RowChange(entity: "", columns: nil, isInserted: true, isDeleted: false)
        }
        for (key, change) in summary.updated where key.storage == storage {
            let table = StackCore.TableKey(storage: key.storage, table: key.table)
            if var row = rows[table]?[key.rowID] {
                if row.columns != nil { row.columns?.formUnion(change.columns) }
                rows[table]?[key.rowID] = row
            } else {
                rows[table, default: [:]][key.rowID] = RowChange(entity: change.entity, columns: change.columns, isInserted: false, isDeleted: false)
            }
        }
        for (key, entity) in summary.deleted where key.storage == storage {
            rows[StackCore.TableKey(storage: key.storage, table: key.table), default: [:]][key.rowID] =
                RowChange(entity: entity, columns: nil, isInserted: false, isDeleted: true)
        }
        for (key, change) in summary.toMany where key.storage == storage {
            let table = StackCore.TableKey(storage: key.storage, table: key.table)
            if rows[table]?[key.rowID] == nil {
                rows[table, default: [:]][key.rowID] = RowChange(entity: change.entity, columns: ColumnSet(), isInserted: false, isDeleted: false)
            }
            rows[table]?[key.rowID]?.relationships.formUnion(change.names)
        }
        if summary.relationshipsChanged { relationshipStorages.insert(storage) }
    }
}
