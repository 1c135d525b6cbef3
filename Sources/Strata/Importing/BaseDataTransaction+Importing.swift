/// Importing sources into objects. Unique imports look up existing objects with one query per
/// chunk of IDs, never one per source.
extension BaseDataTransaction {
    /// How many IDs one uniquing query looks up.
    static let importChunkSize = 500

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
    public func importUniqueObjects<T: ImportableUniqueObject>(_ into: Into<T>, sourceArray: [[String: Any]]) throws -> [T] {
        var ids: [T.UniqueIDValue?] = []
        ids.reserveCapacity(sourceArray.count)
        for source in sourceArray { ids.append(try T.uniqueID(from: source, in: self)) }
        var existing: [T.UniqueIDValue: T] = [:]
        let distinct = Array(Set(ids.compactMap { $0 }))
        var start = 0
        while start < distinct.count {
            let chunk = Array(distinct[start..<min(start + Self.importChunkSize, distinct.count)])
            for object in try context.fetch(From<T>(into.configuration).where(T.uniqueIDKeyPath ~= chunk)) {
                existing[object[keyPath: T.uniqueIDKeyPath]] = object
            }
            start += Self.importChunkSize
        }
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
}
