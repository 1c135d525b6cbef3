/// What a context tells Observation about changes it applies to its objects itself (commits
/// applied to the main context, re-reads, merges), as opposed to changes made through setters,
/// which tell it at once. They are gathered and told after the whole commit is applied, so that
/// an observer reading the object sees the committed state, never part of it.
struct PendingObservation {
    let object: StrataObject
    /// The changed stored columns; nil for all of them.
    var columns: ColumnSet?
    /// Whether its to-many relationships changed.
    var relationships: Bool
    /// Whether it was deleted.
    var deleted: Bool
}

extension ObjectContext {
    /// Records a change applied to an object, for `flushObservation`; nothing when no accessor of
    /// the object was ever read (no observer can be tracking it).
    func noteObservedChange(_ object: StrataObject, columns: ColumnSet?, relationships: Bool = false, deleted: Bool = false) {
        guard object.isObserved else { return }
        if var pending = pendingObservation[object.key] {
            if var known = pending.columns, let columns {
                known.formUnion(columns)
                pending.columns = known
            } else {
                pending.columns = nil
            }
            pending.relationships = pending.relationships || relationships
            pending.deleted = pending.deleted || deleted
            pendingObservation[object.key] = pending
        } else {
            pendingObservation[object.key] = PendingObservation(object: object, columns: columns, relationships: relationships, deleted: deleted)
        }
    }

    /// Tells Observation every change recorded since the last flush.
    func flushObservation() {
        guard !pendingObservation.isEmpty else { return }
        let pending = pendingObservation
        pendingObservation = [:]
        for change in pending.values {
            change.object.notifyObservers(columns: change.columns, relationships: change.relationships, deleted: change.deleted)
        }
    }

    /// Tells Observation at once that a relationship of an object changed (an inverse kept in step
    /// by a setter of another object).
    func relationshipChanged(_ object: StrataObject, _ relationship: RelationshipLayout) {
        guard object.isObserved else { return }
        object.observationChanged(.relationship, relationship.index)
    }
}
