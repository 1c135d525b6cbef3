/// One object of a monitored list: where its row is, its entity, and the values that place it
/// (the section key first in a sectioned list, then each sort key).
struct ListEntry: Sendable {
    let key: ObjectKey
    let entityName: String
    let sortValues: [SQLValue]
}

/// How a monitored list is ordered: each sort value ascending or descending, then by storage
/// and row id, so that no two entries tie and every position is exact.
struct ListOrdering: Sendable {
    /// For each of an entry's sort values, whether it sorts ascending.
    let ascending: [Bool]

    /// -1, 0 or 1 as `lhs` comes before, is, or comes after `rhs`.
    func compare(_ lhs: ListEntry, _ rhs: ListEntry) -> Int {
        for index in ascending.indices {
            let order = SQLiteOrdering.compare(lhs.sortValues[index], rhs.sortValues[index])
            if order != 0 { return ascending[index] ? order : -order }
        }
        if lhs.key.storage != rhs.key.storage { return lhs.key.storage < rhs.key.storage ? -1 : 1 }
        return lhs.key.rowID < rhs.key.rowID ? -1 : (lhs.key.rowID == rhs.key.rowID ? 0 : 1)
    }

    /// Whether two entries belong to the same section (the first sort value of a sectioned list).
    static func sameSection(_ lhs: SQLValue, _ rhs: SQLValue) -> Bool {
        SQLiteOrdering.compare(lhs, rhs) == 0
    }
}
