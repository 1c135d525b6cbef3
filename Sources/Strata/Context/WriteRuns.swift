/// The order a commit writes objects in: runs that share a statement, so that a backend which
/// sends a run's rows together (see ``BatchedWrite``) sends few statements.
///
/// Objects of one run keep their order; runs come in the order their first object came. No
/// order between tables matters to a store (no foreign-key constraints cross tables), while the
/// order within a table does (a unique column's first writer fails, not its second).
enum WriteRuns {
    /// The run of an insert or a delete: an entity in a storage.
    struct EntityKey: Hashable {
        let storage: Int32
        let layout: ObjectIdentifier?

        init(object: StrataObject) {
            storage = object.key.storage
            layout = object.layout.map(ObjectIdentifier.init)
        }
    }

    /// The run of an update: an entity in a storage and the set of columns it changes.
    struct UpdateKey: Hashable {
        let entity: EntityKey
        let columns: ColumnSet

        init(object: StrataObject) {
            entity = EntityKey(object: object)
            columns = object.dirty
        }
    }

    /// `objects` in runs of equal keys: `objects` itself when each key already forms one run
    /// (the usual case, checked by hashing a key only where a run ends), else regrouped.
    static func grouped<Element, Key: Hashable>(_ objects: [Element], by key: (Element) -> Key) -> [Element] {
        guard objects.count > 1 else { return objects }
        var ended: Set<Key> = []
        var current = key(objects[0])
        var isGrouped = true
        for object in objects.dropFirst() {
            let next = key(object)
            if next == current { continue }
            if !ended.insert(current).inserted || ended.contains(next) {
                isGrouped = false
                break
            }
            current = next
        }
        if isGrouped { return objects }
        var order: [Key] = []
        var runs: [Key: [Element]] = [:]
        for object in objects {
            let objectKey = key(object)
            if runs[objectKey] == nil { order.append(objectKey) }
            runs[objectKey, default: []].append(object)
        }
        return order.flatMap { runs[$0] ?? [] }
    }
}
