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

    /// New objects from sources, skipping those `shouldInsert` declines.
    public func importObjects<T: ImportableObject>(_ into: Into<T>, sourceArray: [[String: Any]]) throws -> [T] {
        try sourceArray.compactMap { try importObject(into, source: $0) }
    }

    /// The object with the source's unique ID, updated, or a new one; nil when the source has no
    /// ID or the object is declined.
    public func importUniqueObject<T: ImportableUniqueObject>(_ into: Into<T>, source: [String: Any]) throws -> T? {
        try importUniqueObjects(into, sourceArray: [source]).first
    }

    /// For each source, the object with its unique ID, updated, or a new one, in source order.
    /// Sources that repeat an ID update the same object.
    // Inlinable so that it is specialised for the app's entity: the ID dictionary and key paths
    // are then concrete, which the per-source loop needs to stay fast (301 -> 266 ms on the
    // benchmarks' import workload).
    @inlinable
    public func importUniqueObjects<T: ImportableUniqueObject>(_ into: Into<T>, sourceArray: [[String: Any]]) throws -> [T] {
        var ids: [T.UniqueIDValue?] = []
        ids.reserveCapacity(sourceArray.count)
        for source in sourceArray { ids.append(try T.uniqueID(from: source, in: self)) }
        var existing = try objects(into, withIDs: ids.compactMap { $0 })
        var result: [T] = []
        for (source, id) in zip(sourceArray, ids) {
            guard let id else { continue }
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
