/// Importing sources into objects. Unique imports look up existing objects with one query per
/// chunk of IDs, never one per source.
extension BaseDataTransaction {
    /// How many IDs one uniquing query looks up.
    @usableFromInline static let importChunkSize = 500

    /// A new object from a source, or nil when `shouldInsert` declines it.
    public func importObject<T: ImportableObject>(_ into: Into<T>, source: [String: Any]) throws -> T? {
        guard T.shouldInsert(from: source, in: self) else { return nil }
        let object = create(into)
        try object.didInsert(from: source, in: self)
        return object
    }

    /// Fills an existing object from a source, as for a new one, unless `shouldInsert` declines it.
    public func importObject<T: ImportableObject>(_ object: T, source: [String: Any]) throws {
        guard T.shouldInsert(from: source, in: self) else { return }
        try object.didInsert(from: source, in: self)
    }

    /// Updates an existing object from a source, unless `shouldUpdate` declines it.
    public func importObject<T: ImportableUniqueObject>(_ object: T, source: [String: Any]) throws {
        guard T.shouldUpdate(from: source, in: self) else { return }
        try object.update(from: source, in: self)
    }

    /// New objects from sources, skipping those `shouldInsert` declines.
    public func importObjects<T: ImportableObject>(_ into: Into<T>, sourceArray: [[String: Any]]) throws -> [T] {
        try sourceArray.compactMap { try importObject(into, source: $0) }
    }

    /// The object with the source's unique ID, updated, or a new one; nil when the source has no
    /// ID or the object is declined.
    public func importUniqueObject<T: ImportableUniqueObject>(_ into: Into<T>, source: [String: Any]) throws -> T? {
        try importUniqueObjects(into, sourceArray: [source]).first
    }

    /// For each unique ID the sources carry, the object with that ID, updated, or a new one, in
    /// the order the IDs first appear. An ID repeated in the array is imported once, from its
    /// last source (as CoreStore does). Sources without an ID, and those `shouldInsert` or
    /// `shouldUpdate` decline, are skipped.
    // Inlinable so that it is specialised for the app's entity: the ID dictionary and key paths
    // are then concrete, which the per-source loop needs to stay fast (301 -> 266 ms on the
    // benchmarks' import workload).
    @inlinable
    public func importUniqueObjects<T: ImportableUniqueObject>(_ into: Into<T>, sourceArray: [[String: Any]]) throws -> [T] {
        // Each ID once, in first-appearance order, with the index of its last source.
        var order: [T.UniqueIDValue] = []
        var lastSource: [T.UniqueIDValue: Int] = [:]
        order.reserveCapacity(sourceArray.count)
        lastSource.reserveCapacity(sourceArray.count)
        for (index, source) in sourceArray.enumerated() {
            guard let id = try T.uniqueID(from: source, in: self) else { continue }
            if lastSource.updateValue(index, forKey: id) == nil { order.append(id) }
        }
        var existing = try objects(into, withIDs: order)
        var result: [T] = []
        result.reserveCapacity(order.count)
        for id in order {
            guard let index = lastSource[id] else { continue }
            let source = sourceArray[index]
            if let object = existing[id] {
                guard T.shouldUpdate(from: source, in: self) else { continue }
                try object.update(from: source, in: self)
                result.append(object)
            } else {
                guard T.shouldInsert(from: source, in: self) else { continue }
                let object = create(into)
                object[keyPath: T.uniqueIDKeyPath] = id
                try object.didInsert(from: source, in: self)
                existing[id] = object
                result.append(object)
            }
        }
        return result
    }

    /// The objects a relationship key names: nested objects imported through `T`'s importer.
    public func importRelated<T: ImportableObject>(_ into: Into<T>, _ related: RelatedSources) throws -> [T] {
        if let id = related.ids.first {
            throw StrataError.importFailed(entity: related.context.entity, attribute: related.context.relationship, key: related.context.key,
                                           reason: "found the ID \(ImportValue.describe(id)), but '\(T.entityName)' has no uniqueID to find objects by")
        }
        return try importObjects(into, sourceArray: related.objects)
    }

    /// The objects a relationship key names: nested objects imported (uniqued) through `T`'s
    /// importer, or the existing objects with the given unique IDs, in the order named.
    public func importRelated<T: ImportableUniqueObject>(_ into: Into<T>, _ related: RelatedSources) throws -> [T] {
        guard !related.ids.isEmpty else { return try importUniqueObjects(into, sourceArray: related.objects) }
        var ids: [T.UniqueIDValue] = []
        for raw in related.ids {
            guard let id = T.UniqueIDValue(importValue: raw) else {
                throw StrataError.importFailed(entity: related.context.entity, attribute: related.context.relationship, key: related.context.key,
                                               reason: "expected \(T.UniqueIDValue.importDescription) IDs of '\(T.entityName)', found \(ImportValue.describe(raw))")
            }
            ids.append(id)
        }
        let found = try objects(into, withIDs: ids)
        return try ids.map { id in
            guard let object = found[id] else {
                throw StrataError.importFailed(entity: related.context.entity, attribute: related.context.relationship, key: related.context.key,
                                               reason: "no '\(T.entityName)' has the ID \(id)")
            }
            return object
        }
    }

    /// The stored objects with the given unique IDs, by ID, looked up with one query per
    /// `importChunkSize` distinct IDs.
    @inlinable
    func objects<T: ImportableUniqueObject>(_ into: Into<T>, withIDs ids: [T.UniqueIDValue]) throws(StrataError) -> [T.UniqueIDValue: T] {
        var found: [T.UniqueIDValue: T] = [:]
        let distinct = Array(Set(ids))
        var start = 0
        while start < distinct.count {
            let chunk = Array(distinct[start..<min(start + Self.importChunkSize, distinct.count)])
            for object in try fetchAll(From<T>(into.configuration).where(T.uniqueIDKeyPath ~= chunk)) {
                found[object[keyPath: T.uniqueIDKeyPath]] = object
            }
            start += Self.importChunkSize
        }
        return found
    }
}
