/// Relationships: reading both kinds, keeping every inverse in step when one side changes, delete
/// rules, and writing to-many changes (positions and link rows) when the context flushes.
extension ObjectContext {
    /// The resolved relationship at a lineage index of an object's entity.
    func relationship(_ index: Int, of object: StrataObject) -> RelationshipLayout {
        guard let layout = object.layout, let relationship = core.layout.relationship(index, of: layout.name) else {
            misuse("Strata: \(type(of: object).entityName) has no relationship #\(index)")
        }
        return relationship
    }

    // MARK: Reading

    /// The destination of a to-one relationship.
    func destination(of object: StrataObject, relationship index: Int) -> StrataObject? {
        let relationship = relationship(index, of: object)
        guard case .foreignKey(let ordinal) = relationship.storage, let rowID = object.foreignKey(ordinal),
              let destination = core.layout.entity(relationship.destination) else { return nil }
        let key = ObjectKey(storage: object.key.storage, table: Int32(destination.tableIndex), rowID: rowID)
        do {
            return try existingObject(key, entityName: destination.name)
        } catch {
            if deferredError == nil { deferredError = error }
            return nil
        }
    }

    /// The objects of a to-many relationship, in stored order, loaded on first use.
    func related(_ object: StrataObject, relationship index: Int) -> [StrataObject] {
        let relationship = relationship(index, of: object)
        return keys(of: object, relationship).compactMap { key in
            (try? existingObject(key, entityName: relationship.destination)) ?? nil
        }
    }

    /// The keys of a to-many relationship: the loaded ones, or one query for all of them.
    func keys(of object: StrataObject, _ relationship: RelationshipLayout) -> [ObjectKey] {
        if let keys = object.toManyKeys?[relationship.index] { return keys }
        guard object.isWritten || !object.isInserted, storageHolds(relationship, of: object),
              let destination = core.layout.entity(relationship.destination) else {
            object.toManyKeys = (object.toManyKeys ?? [:]).merging([relationship.index: []]) { $1 }
            return []
        }
        var condition: SQLFragment
        var joins: [SQLFragment] = []
        var order: [SQLFragment] = []
        switch relationship.storage {
        case .foreignKey:
            return []
        case .inverseForeignKey(let column, let orderColumn):
            condition = SQLFragment("t." + SQLFragment.quote(column) + " = ?", [.integer(object.rowID)])
            if let orderColumn { order.append(SQLFragment("t." + SQLFragment.quote(orderColumn))) }
        case .linkTable(let name):
            joins.append(SQLFragment("JOIN " + SQLFragment.quote(name) + " AS l ON l.target = t." + SQLFragment.quote(StoreLayout.idColumn)))
            condition = SQLFragment("l.owner = ?", [.integer(object.rowID)])
            order.append(SQLFragment("l.position"))
        }
        order.append(SQLFragment("t." + SQLFragment.quote(StoreLayout.idColumn)))
        let plan = FetchPlan(entity: destination, core: core, where: [condition], orderBy: order, tweak: Tweak(), joins: joins)
        var keys: [ObjectKey] = []
        do {
            if kind == .transaction { try flush() }
            let statement = try connection(for: object.key.storage).cachedStatement(plan.sql.text)
            statement.bind(plan.sql.arguments)
            defer { statement.reset() }
            while try statement.step() {
                if let related = try materialize(statement.row, plan: plan, storage: object.key.storage), !related.deleted {
                    keys.append(related.key)
                }
            }
        } catch {
            if deferredError == nil { deferredError = error }
        }
        var loaded = object.toManyKeys ?? [:]
        loaded[relationship.index] = keys
        object.toManyKeys = loaded
        log.toMany[object.key, default: []].insert(relationship.name)
        return keys
    }

    // MARK: Changing

    /// Sets a to-one relationship and keeps its inverse in step.
    func setToOne(_ object: StrataObject, relationship index: Int, to value: StrataObject?) {
        let relationship = relationship(index, of: object)
        if let value, !sharesStorage(object, value, relationship) { return }
        let old = destination(of: object, relationship: index)
        guard old !== value else { return }
        relationshipsChanged = true
        if let old { detach(object, from: old, inverseOf: relationship) }
        if let value { attach(object, to: value, inverseOf: relationship) }
        writeForeignKey(of: object, relationship, to: value)
    }

    /// Sets a to-many relationship and keeps every inverse in step.
    func setToMany(_ object: StrataObject, relationship index: Int, to values: [StrataObject]) {
        let relationship = relationship(index, of: object)
        guard values.allSatisfy({ sharesStorage(object, $0, relationship) }) else { return }
        var seen: Set<ObjectKey> = []
        let unique = values.filter { seen.insert($0.key).inserted }
        let current = related(object, relationship: index)
        let currentKeys = Set(current.map(\.key))
        relationshipsChanged = true
        for removed in current where !seen.contains(removed.key) {
            detach(object, from: removed, inverseOf: relationship)
        }
        for added in unique where !currentKeys.contains(added.key) {
            attach(object, to: added, inverseOf: relationship)
        }
        setKeys(unique.map(\.key), of: object, relationship)
    }

    /// Whether two objects are in one storage, as related objects must be; when they are not,
    /// the transaction fails at commit with `crossStorageRelationship` (a setter cannot throw).
    private func sharesStorage(_ object: StrataObject, _ destination: StrataObject, _ relationship: RelationshipLayout) -> Bool {
        let (source, target) = (object.key.storage, destination.key.storage)
        guard source != target, source >= 0, target >= 0 else { return true }
        if deferredError == nil {
            let configuration = { (index: Int32) in self.core.storages.first { $0.index == index }?.configuration ?? "?" }
            deferredError = .crossStorageRelationship(entity: type(of: object).entityName, relationship: relationship.name,
                                                      configurations: [configuration(source), configuration(target)])
        }
        return false
    }

    /// Whether an object's storage holds a relationship's destination entity: a relationship to
    /// an entity of another configuration can never hold objects (they would be in another storage).
    private func storageHolds(_ relationship: RelationshipLayout, of object: StrataObject) -> Bool {
        guard object.key.storage >= 0, let storage = core.storages.first(where: { $0.index == object.key.storage }) else { return true }
        return storage.entities.contains(relationship.destination)
    }

    /// Removes `source` from the inverse of `relationship` on `destination`.
    private func detach(_ source: StrataObject, from destination: StrataObject, inverseOf relationship: RelationshipLayout) {
        guard let inverse = core.layout.relationship(relationship.inverseIndex, of: type(of: destination).entityName) else { return }
        if inverse.isToMany {
            let keys = keys(of: destination, inverse).filter { $0 != source.key }
            setKeys(keys, of: destination, inverse)
        } else if self.destination(of: destination, relationship: inverse.index) === source {
            writeForeignKey(of: destination, inverse, to: nil)
        }
    }

    /// Adds `source` to the inverse of `relationship` on `destination`, taking it from whatever the
    /// inverse pointed at before when the inverse is to-one.
    private func attach(_ source: StrataObject, to destination: StrataObject, inverseOf relationship: RelationshipLayout) {
        guard let inverse = core.layout.relationship(relationship.inverseIndex, of: type(of: destination).entityName) else { return }
        if inverse.isToMany {
            var keys = keys(of: destination, inverse)
            if !keys.contains(source.key) { keys.append(source.key) }
            setKeys(keys, of: destination, inverse)
            return
        }
        if let previous = self.destination(of: destination, relationship: inverse.index), previous !== source {
            if relationship.isToMany {
                setKeys(keys(of: previous, relationship).filter { $0 != destination.key }, of: previous, relationship)
            } else {
                writeForeignKey(of: previous, relationship, to: nil)
            }
        }
        writeForeignKey(of: destination, inverse, to: source)
    }

    private func writeForeignKey(of object: StrataObject, _ relationship: RelationshipLayout, to value: StrataObject?) {
        guard case .foreignKey(let ordinal) = relationship.storage else { return }
        // Marked first: an unsafe transaction records the value as read before it changes.
        object.markChanged(ordinal)
        object.setForeignKey(ordinal, value?.rowID)
        relationshipChanged(object, relationship)
    }

    /// Replaces the loaded keys of a to-many relationship and schedules its positions or link rows.
    private func setKeys(_ keys: [ObjectKey], of object: StrataObject, _ relationship: RelationshipLayout) {
        var loaded = object.toManyKeys ?? [:]
        loaded[relationship.index] = keys
        object.toManyKeys = loaded
        relationshipChanged(object, relationship)
        switch relationship.storage {
        case .linkTable, .inverseForeignKey(_, _?):
            changedToMany[ToManyKey(object: object.key, relationship: relationship.index)] = (object, relationship)
        default:
            break
        }
        if relationship.description.minCount != nil || relationship.description.maxCount != nil {
            countChecks[ToManyKey(object: object.key, relationship: relationship.index)] = (object, relationship)
        }
    }

    // MARK: Deleting

    /// Applies an object's delete rules: cascade deletes destinations, nullify detaches them, deny
    /// is checked when the transaction commits.
    func applyDeleteRules(_ object: StrataObject) {
        guard let layout = object.layout else { return }
        for relationship in core.layout.relationships[layout.name] ?? [] {
            let destinations: [StrataObject]
            if relationship.isToMany {
                destinations = related(object, relationship: relationship.index)
            } else {
                destinations = destination(of: object, relationship: relationship.index).map { [$0] } ?? []
            }
            guard !destinations.isEmpty else { continue }
            relationshipsChanged = true
            switch relationship.description.deleteRule {
            case .deny:
                denials.append((object, relationship))
            case .cascade:
                for destination in destinations where !destination.deleted { delete(destination) }
            case .nullify:
                for destination in destinations where !destination.deleted { detach(object, from: destination, inverseOf: relationship) }
            }
            if case .linkTable = relationship.storage, object.isWritten { deletedLinks.append((object, relationship)) }
        }
    }

    /// Deny rules whose destinations still exist, and to-many counts outside their bounds.
    func validateRelationships() throws(StrataError) {
        for (object, relationship) in denials where object.deleted {
            let remaining = relationship.isToMany
                ? related(object, relationship: relationship.index).filter { !$0.deleted }.count
                : (destination(of: object, relationship: relationship.index).map { $0.deleted ? 0 : 1 } ?? 0)
            if remaining > 0 {
                throw .deleteDenied(entity: type(of: object).entityName, relationship: relationship.name, count: remaining)
            }
        }
        var checks = countChecks
        // The relationships with a minimum count, looked up once per run of one class rather
        // than by entity name (hashing it) for every created object.
        var bounded: (type: ObjectIdentifier, relationships: [RelationshipLayout])?
        for object in created where !object.deleted {
            let type = ObjectIdentifier(Swift.type(of: object))
            if bounded?.type != type {
                let relationships = core.layout.relationships[Swift.type(of: object).entityName] ?? []
                bounded = (type, relationships.filter { ($0.description.minCount ?? 0) > 0 })
            }
            guard let bounded, !bounded.relationships.isEmpty else { continue }
            for relationship in bounded.relationships {
                checks[ToManyKey(object: object.key, relationship: relationship.index)] = (object, relationship)
            }
        }
        for (object, relationship) in checks.values.sorted(by: { $0.0.rowID < $1.0.rowID }) where !object.deleted {
            let count = related(object, relationship: relationship.index).count
            let description = relationship.description
            if count < (description.minCount ?? 0) || count > (description.maxCount ?? Int.max) {
                throw .relationshipCount(entity: type(of: object).entityName, relationship: relationship.name, count: count,
                                         minimum: description.minCount, maximum: description.maxCount)
            }
        }
    }

    // MARK: Writing

    /// Writes positions of ordered to-many relationships and the link rows of many-to-many ones.
    func flushRelationships() throws(StrataError) {
        for (object, relationship) in deletedLinks {
            guard let clearLinksSQL = relationship.clearLinksSQL else { continue }
            let statement = try beginWriting(object.key.storage).cachedStatement(clearLinksSQL)
            statement.bind(object.rowID, at: 1)
            try statement.step()
        }
        deletedLinks.removeAll()
        let changes = changedToMany.values.sorted { ($0.0.rowID, $0.1.index) < ($1.0.rowID, $1.1.index) }
        changedToMany.removeAll()
        for (object, relationship) in changes where !object.deleted {
            let keys = object.toManyKeys?[relationship.index] ?? []
            let connection = try beginWriting(object.key.storage)
            if let clearLinksSQL = relationship.clearLinksSQL, let insertLinkSQL = relationship.insertLinkSQL {
                let clear = try connection.cachedStatement(clearLinksSQL)
                clear.bind(object.rowID, at: 1)
                try clear.step()
                let insert = try connection.cachedStatement(insertLinkSQL)
                for (position, key) in keys.enumerated() {
                    insert.reset()
                    insert.bind(object.rowID, at: 1)
                    insert.bind(key.rowID, at: 2)
                    insert.bind(Int64(position), at: 3)
                    try insert.step()
                }
            } else if let setPositionSQL = relationship.setPositionSQL {
                let update = try connection.cachedStatement(setPositionSQL)
                for (position, key) in keys.enumerated() {
                    update.reset()
                    update.bind(Int64(position), at: 1)
                    update.bind(key.rowID, at: 2)
                    try update.step()
                }
            }
        }
    }
}

/// An object's to-many relationship, as a dictionary key.
struct ToManyKey: Hashable {
    let object: ObjectKey
    let relationship: Int
}
