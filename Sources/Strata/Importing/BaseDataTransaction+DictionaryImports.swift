/// The `import…` methods for JSON-like dictionaries (`[String: Any]`, as `JSONSerialization`
/// returns them) into entities whose importer takes a generated `ImportPayload`: the payload's
/// reader takes each key straight from the dictionary (no decoder between), with the conversions
/// and errors of decoded JSON, so both forms import alike; a source that does not fit throws
/// `invalidImportSource` naming its index in the array and the key.
extension BaseDataTransaction {
    /// A new object from a dictionary, or nil when `shouldInsert` declines it.
    @inlinable @discardableResult
    public func importObject<T: ImportableObject>(_ into: Into<T>, source: [String: Any]) throws -> T? where T.ImportSource: JSONImportPayload {
        try importObject(into, source: try payload(T.self, source))
    }

    /// Fills an existing object from a dictionary, as for a new one.
    @inlinable
    public func importObject<T: ImportableObject>(_ object: T, source: [String: Any]) throws where T.ImportSource: JSONImportPayload {
        try importObject(object, source: try payload(T.self, source))
    }

    /// Updates an existing object from a dictionary, unless `shouldUpdate` declines it.
    @inlinable
    public func importObject<T: ImportableUniqueObject>(_ object: T, source: [String: Any]) throws where T.ImportSource: JSONImportPayload {
        try importObject(object, source: try payload(T.self, source))
    }

    /// New objects from dictionaries, skipping those `shouldInsert` declines.
    @inlinable @discardableResult
    public func importObjects<T: ImportableObject>(_ into: Into<T>, sourceArray: [[String: Any]]) throws -> [T] where T.ImportSource: JSONImportPayload {
        try importObjects(into, sourceArray: try payloads(T.self, T.ImportSource.self, sourceArray))
    }

    /// The object with the dictionary's unique ID, updated, or a new one.
    @inlinable @discardableResult
    public func importUniqueObject<T: ImportableUniqueObject>(_ into: Into<T>, source: [String: Any]) throws -> T? where T.ImportSource: JSONImportPayload {
        try importUniqueObject(into, source: try payload(T.self, source))
    }

    /// `importUniqueObjects` from dictionaries.
    @inlinable @discardableResult
    public func importUniqueObjects<T: ImportableUniqueObject>(_ into: Into<T>, sourceArray: [[String: Any]]) throws -> [T] where T.ImportSource: JSONImportPayload {
        try importUniqueObjects(into, sourceArray: try payloads(T.self, T.ImportSource.self, sourceArray))
    }

    /// `importUniqueObjectsReporting` from dictionaries.
    @inlinable
    public func importUniqueObjectsReporting<T: ImportableUniqueObject>(_ into: Into<T>, sourceArray: [[String: Any]]) throws -> ImportReport<T>
    where T.ImportSource: JSONImportPayload {
        try importUniqueObjectsReporting(into, sourceArray: try payloads(T.self, T.ImportSource.self, sourceArray))
    }

    /// One source's payload, read straight from its dictionary, with errors naming `T`.
    @inlinable
    func payload<T: ImportableObject>(_ entity: T.Type, _ source: [String: Any]) throws -> T.ImportSource where T.ImportSource: JSONImportPayload {
        try T.ImportSource(reading: ImportPayloadReader(jsonObject: source, index: nil, entity: T.entityName))
    }

    /// The sources' payloads, each read straight from its dictionary by the payload's
    /// `init(reading:)`, with errors naming `T` and the source's index.
    @inlinable
    func payloads<T: StrataObject, P: JSONImportPayload>(_ entity: T.Type, _ type: P.Type, _ sources: [[String: Any]]) throws -> [P] {
        var payloads: [P] = []
        payloads.reserveCapacity(sources.count)
        for (index, source) in sources.enumerated() {
            payloads.append(try P(reading: ImportPayloadReader(jsonObject: source, index: index, entity: T.entityName)))
        }
        return payloads
    }

    /// The objects a relationship key of a dictionary names: nested objects imported through
    /// `T`'s importer (for importers written by hand over `[String: Any]`).
    public func importRelated<T: ImportableObject>(_ into: Into<T>, _ related: RelatedSources) throws -> [T] where T.ImportSource == [String: Any] {
        if let id = related.ids.first {
            throw StrataError.importFailed(entity: related.context.entity, attribute: related.context.relationship, key: related.context.key,
                                           reason: "found the ID \(ImportValue.describe(id)), but '\(T.entityName)' has no uniqueID to find objects by")
        }
        return try importObjects(into, sourceArray: related.objects)
    }

    /// The objects a relationship key of a dictionary names: nested objects imported (uniqued)
    /// through `T`'s importer, or the existing objects with the given unique IDs, in the order named.
    public func importRelated<T: ImportableUniqueObject>(_ into: Into<T>, _ related: RelatedSources) throws -> [T] where T.ImportSource == [String: Any] {
        guard !related.ids.isEmpty else { return try importUniqueObjects(into, sourceArray: related.objects) }
        var ids: [T.UniqueIDValue] = []
        for raw in related.ids {
            guard let id = T.UniqueIDValue(importValue: raw) else {
                throw StrataError.importFailed(entity: related.context.entity, attribute: related.context.relationship, key: related.context.key,
                                               reason: "expected \(T.UniqueIDValue.importDescription) IDs of '\(T.entityName)', found \(ImportValue.describe(raw))")
            }
            ids.append(id)
        }
        return try existingObjects(into, withIDs: ids, context: related.context)
    }
}
