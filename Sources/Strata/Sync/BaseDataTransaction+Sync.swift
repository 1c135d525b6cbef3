/// What the sync engine does inside a transaction, by entity and property name rather than by
/// generated type: it applies other nodes' changes as ordinary commits, so monitors, observers and
/// delete rules see them like any other. The objects it creates or sets are noted, and their
/// changes reach commit hooks marked ``HookedChange/appliedBySync``.
extension BaseDataTransaction {
    /// The writer connection of the storage added for `configuration`, inside this transaction's
    /// write transaction (opened first); what the engine writes to its own tables commits with
    /// the transaction's objects.
    package func syncConnection(configuration: String) throws(StrataError) -> any DatabaseConnection {
        guard let storage = context.core.storages.first(where: { $0.configuration == configuration }) else {
            throw .unknownConfiguration(configuration, available: context.core.storages.map(\.configuration))
        }
        return try context.beginWriting(storage.index)
    }

    /// The object of `entity` (or of a subentity) stored with `rowID`; nil when there is none.
    package func syncObject(entity: String, rowID: Int64) throws(StrataError) -> StrataObject? {
        try context.existingObject(ObjectKey(storage: ObjectKey.detached, table: 0, rowID: rowID), entityName: entity)
    }

    /// A new object of `entity` in the storage of `configuration`.
    package func syncCreate(entity: String, configuration: String) throws(StrataError) -> StrataObject {
        guard let layout = context.core.layout.entity(entity) else { throw .noStorage(entity: entity) }
        let object = context.createObject(layout.type, configuration: configuration)
        context.log.appliedBySync.insert(ObjectIdentifier(object))
        return object
    }

    /// Sets attributes of `object`, by column ordinal, to stored values, as their setters would
    /// (observers are told, the commit writes them); a value the object holds already is left
    /// alone. The object's columns are read and written once for all of them.
    package func syncSet(_ object: StrataObject, values changes: [(ordinal: Int, value: SQLValue)]) {
        context.log.appliedBySync.insert(ObjectIdentifier(object))
        var values = ObjectContext.currentValues(of: object)
        var changed: [Int] = []
        changed.reserveCapacity(changes.count)
        for (ordinal, value) in changes where ordinal < values.count && values[ordinal] != value {
            values[ordinal] = value
            changed.append(ordinal)
        }
        guard !changed.isEmpty else { return }
        for ordinal in changed { object.willSet(ordinal, "value") }
        ObjectContext.setValues(values, of: object)
        for ordinal in changed { object.didSet(column: ordinal) }
    }

    /// Sets the to-one relationship at lineage index `relationship`, updating its inverse.
    package func syncSetToOne(_ object: StrataObject, relationship: Int, to destination: StrataObject?) {
        context.log.appliedBySync.insert(ObjectIdentifier(object))
        guard object.toOneObject(relationship) !== destination else { return }
        object.setToOneObject(relationship, "relationship", destination)
    }

    /// Sets the members of the to-many relationship at lineage index `relationship`, in order.
    package func syncSetToMany(_ object: StrataObject, relationship: Int, to members: [StrataObject]) {
        context.log.appliedBySync.insert(ObjectIdentifier(object))
        let current: [StrataObject] = object.toMany(relationship)
        guard current.count != members.count || zip(current, members).contains(where: { $0 !== $1 }) else { return }
        object.setToMany(relationship, "relationship", members)
    }

    /// Every column's value of an object, in column order (foreign keys as row ids).
    package func syncValues(of object: StrataObject) -> [SQLValue] {
        ObjectContext.currentValues(of: object)
    }

    /// The members of the to-many relationship at lineage index `relationship`, in stored order.
    package func syncMembers(of object: StrataObject, relationship: Int) -> [StrataObject] {
        object.toMany(relationship)
    }
}

extension StrataObject {
    /// The object's row id in its table, as the sync engine's own tables record it.
    package var syncRowID: Int64 { rowID }

    /// The object's entity, as its layout names it.
    package var syncEntityName: String { Swift.type(of: self).entityName }
}
