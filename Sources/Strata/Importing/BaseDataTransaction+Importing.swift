/// Importing sources into objects. Unique imports look up existing objects with one query per
/// chunk of IDs, never one per source.
extension BaseDataTransaction {
    /// How many IDs one uniquing query of `entity` looks up, in its store's dialect.
    @usableFromInline func importChunkSize(of entity: String) -> Int {
        context.core.dialect(of: entity).lookupChunkSize
    }

    /// A new object from a source, or nil when `shouldInsert` declines it.
    @discardableResult
    public func importObject<T: ImportableObject>(_ into: Into<T>, source: T.ImportSource) throws -> T? {
        guard T.shouldInsert(from: source, in: self) else { return nil }
        let object = create(into)
        try object.didInsert(from: source, in: self)
        return object
    }

    /// Fills an existing object from a source, as for a new one, unless `shouldInsert` declines it.
    public func importObject<T: ImportableObject>(_ object: T, source: T.ImportSource) throws {
        guard T.shouldInsert(from: source, in: self) else { return }
        try object.didInsert(from: source, in: self)
    }

    /// Updates an existing object from a source, unless `shouldUpdate` declines it.
    public func importObject<T: ImportableUniqueObject>(_ object: T, source: T.ImportSource) throws {
        guard T.shouldUpdate(from: source, in: self) else { return }
        try object.update(from: source, in: self)
    }

    /// New objects from sources, skipping those `shouldInsert` declines.
    @discardableResult
    public func importObjects<T: ImportableObject>(_ into: Into<T>, sourceArray: [T.ImportSource]) throws -> [T] {
        try sourceArray.compactMap { try importObject(into, source: $0) }
    }

    /// The object with the source's unique ID, updated, or a new one; nil when the source has no
    /// ID or the object is declined.
    @discardableResult
    public func importUniqueObject<T: ImportableUniqueObject>(_ into: Into<T>, source: T.ImportSource) throws -> T? {
        try importUniqueObjectsReporting(into, sourceArray: [source]).objects.first
    }

    /// For each unique ID the sources carry, the object with that ID, updated, or a new one, in
    /// the order the IDs first appear. An ID repeated in the array is imported once, from its
    /// last source (as CoreStore does). Sources without an ID, and those `shouldInsert` or
    /// `shouldUpdate` decline, are skipped; `importUniqueObjectsReporting` counts them.
    @inlinable @discardableResult
    public func importUniqueObjects<T: ImportableUniqueObject>(_ into: Into<T>, sourceArray: [T.ImportSource]) throws -> [T] {
        try importUniqueObjectsReporting(into, sourceArray: sourceArray).objects
    }

    /// `importUniqueObjects`, with counts of what happened to the sources.
    // Inlinable so that it is specialised for the app's entity: the ID dictionary and key paths
    // are then concrete, which the per-source loop needs to stay fast (301 -> 266 ms on the
    // benchmarks' import workload).
    @inlinable
    public func importUniqueObjectsReporting<T: ImportableUniqueObject>(_ into: Into<T>, sourceArray: [T.ImportSource]) throws -> ImportReport<T> {
        var report = ImportReport<T>()
        // Each ID once, in first-appearance order, with the index of its last source.
        var order: [T.UniqueIDValue] = []
        var lastSource: [T.UniqueIDValue: Int] = [:]
        order.reserveCapacity(sourceArray.count)
        lastSource.reserveCapacity(sourceArray.count)
        for (index, source) in sourceArray.enumerated() {
            guard let id = try T.uniqueID(from: source, in: self) else {
                report.skippedWithoutID += 1
                continue
            }
            if lastSource.updateValue(index, forKey: id) == nil { order.append(id) } else { report.superseded += 1 }
        }
        // `order` holds each ID once, so an object created below is never looked up again.
        let existing = try objects(into, withDistinctIDs: order)
        reserveUpdates(existing.count)
        report.objects.reserveCapacity(order.count)
        for id in order {
            guard let index = lastSource[id] else { continue }
            let source = sourceArray[index]
            if let object = existing[id] {
                guard T.shouldUpdate(from: source, in: self) else { report.declined += 1; continue }
                try object.update(from: source, in: self)
                report.updated += 1
                report.objects.append(object)
            } else {
                guard T.shouldInsert(from: source, in: self) else { report.declined += 1; continue }
                let object = create(into)
                object[keyPath: T.uniqueIDKeyPath] = T.UniqueIDAttribute(importID: id)
                try object.didInsert(from: source, in: self)
                report.inserted += 1
                report.objects.append(object)
            }
        }
        return report
    }

    /// Records that this transaction looked up `type`'s objects by the attribute `keyPath` names
    /// and creates those it did not find: another writer creating the same IDs at once makes its
    /// commit fail with a uniqueness violation of that attribute, which `perform` then answers by
    /// running the transaction again (and finding them).
    @usableFromInline func noteUniqueImport<T: StrataObject>(_ type: T.Type, _ keyPath: AnyKeyPath) {
        guard case .name(let name) = Where<T>.path(keyPath), let layout = context.core.layout.entity(T.entityName),
              let column = layout.columns.first(where: { $0.property == name }) else { return }
        context.uniqueImportKeys.insert(ObjectContext.UniqueImportKey(table: layout.table, column: column.name))
    }

    /// Makes room in the transaction's change tables for `count` objects about to be updated.
    @usableFromInline func reserveUpdates(_ count: Int) {
        context.reserveUpdates(count)
    }

    /// The stored objects with the given unique IDs (each given once), by ID, looked up with one
    /// query per `importChunkSize(of:)` IDs.
    @inlinable
    func objects<T: ImportableUniqueObject>(_ into: Into<T>, withDistinctIDs distinct: [T.UniqueIDValue]) throws(StrataError) -> [T.UniqueIDValue: T] {
        var found: [T.UniqueIDValue: T] = [:]
        found.reserveCapacity(distinct.count)
        noteUniqueImport(T.self, T.uniqueIDKeyPath)
        let size = importChunkSize(of: T.entityName)
        var start = 0
        while start < distinct.count {
            let chunk = distinct[start..<min(start + size, distinct.count)]
            for object in try fetchAll(From<T>(configurations: into.target.map { [$0] } ?? []).where(Where<T>.uniqueIDs(T.uniqueIDKeyPath, in: chunk))) {
                // The ID is read through its accessor, which marks the object as read by someone
                // Observation may be tracking; this read is the import's own, so the mark is put
                // back: otherwise every setter of the update that follows would report to the
                // context's registrar (52M of the `import` benchmark's 3,016M instructions).
                let wasObserved = object.isObserved
                let id = object[keyPath: T.uniqueIDKeyPath].importID
                object.isObserved = wasObserved
                if let id { found[id] = object }
            }
            start += size
        }
        return found
    }

    /// The objects a relationship's payload names: nested payloads imported (uniqued) through
    /// `T`'s importer, or the existing objects with the given IDs, in the order named; an ID no
    /// object has is an error naming the entity, relationship and key.
    public func importRelated<T: ImportableUniqueObject>(_ into: Into<T>, _ related: ImportRelation<T.ImportSource, T.UniqueIDValue>,
                                                        entity: String, relationship: String, key: String) throws -> [T] {
        switch related {
        case .objects(let sources): return try importUniqueObjects(into, sourceArray: sources)
        case .ids(let ids): return try existingObjects(into, withIDs: ids, context: (entity, relationship, key))
        }
    }

    /// The objects a relationship's payload names: nested payloads imported through `T`'s importer.
    public func importRelated<T: ImportableObject>(_ into: Into<T>, _ related: ImportRelation<T.ImportSource, Never>,
                                                  entity: String, relationship: String, key: String) throws -> [T] {
        switch related {
        case .objects(let sources): return try importObjects(into, sourceArray: sources)
        case .ids: return []  // an array of `Never` is always empty
        }
    }

    /// The existing objects with the given IDs, in that order; an unknown ID is an error.
    func existingObjects<T: ImportableUniqueObject>(_ into: Into<T>, withIDs ids: [T.UniqueIDValue],
                                                    context: (entity: String, relationship: String, key: String)) throws -> [T] {
        let found = try objects(into, withDistinctIDs: Array(Set(ids)))
        return try ids.map { id in
            guard let object = found[id] else {
                throw StrataError.importFailed(entity: context.entity, attribute: context.relationship, key: context.key,
                                               reason: "no '\(T.entityName)' has the ID \(id)")
            }
            return object
        }
    }
}

extension Where {
    /// The objects whose unique attribute holds one of `ids`.
    @usableFromInline
    static func uniqueIDs<S: ImportUniqueIDStorage>(_ keyPath: KeyPath<T, S>, in ids: ArraySlice<S.ID>) -> Where<T> {
        switch path(keyPath) {
        case .name(let name): return Where(.contained(path: name, values: ids.map(\.sqlValue), style: S.ID.comparison))
        case .invalid(let invalid): return Where(invalid)
        }
    }
}
