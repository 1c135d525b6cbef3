/// The `import…` methods for JSON-like dictionaries (`[String: Any]`, as `JSONSerialization`
/// returns them) into entities whose importer takes a generated `ImportPayload`: each dictionary
/// converts to its payload first, so both forms import alike, and a source that does not fit throws
/// `invalidImportSource` naming its index in the array and the key.
extension BaseDataTransaction {
    /// A new object from a dictionary, or nil when `shouldInsert` declines it.
    @discardableResult
    public func importObject<T: ImportableObject>(_ into: Into<T>, source: [String: Any]) throws -> T? where T.ImportSource: JSONImportPayload {
        try importObject(into, source: try T.ImportSource(jsonObject: source))
    }

    /// Fills an existing object from a dictionary, as for a new one.
    public func importObject<T: ImportableObject>(_ object: T, source: [String: Any]) throws where T.ImportSource: JSONImportPayload {
        try importObject(object, source: try T.ImportSource(jsonObject: source))
    }

    /// Updates an existing object from a dictionary, unless `shouldUpdate` declines it.
    public func importObject<T: ImportableUniqueObject>(_ object: T, source: [String: Any]) throws where T.ImportSource: JSONImportPayload {
        try importObject(object, source: try T.ImportSource(jsonObject: source))
    }

    /// New objects from dictionaries, skipping those `shouldInsert` declines.
    @discardableResult
    public func importObjects<T: ImportableObject>(_ into: Into<T>, sourceArray: [[String: Any]]) throws -> [T] where T.ImportSource: JSONImportPayload {
        try importObjects(into, sourceArray: try payloads(T.ImportSource.self, sourceArray))
    }

    /// The object with the dictionary's unique ID, updated, or a new one.
    @discardableResult
    public func importUniqueObject<T: ImportableUniqueObject>(_ into: Into<T>, source: [String: Any]) throws -> T? where T.ImportSource: JSONImportPayload {
        try importUniqueObject(into, source: try T.ImportSource(jsonObject: source))
    }

    /// `importUniqueObjects` from dictionaries.
    @discardableResult
    public func importUniqueObjects<T: ImportableUniqueObject>(_ into: Into<T>, sourceArray: [[String: Any]]) throws -> [T] where T.ImportSource: JSONImportPayload {
        try importUniqueObjects(into, sourceArray: try payloads(T.ImportSource.self, sourceArray))
    }

    /// `importUniqueObjectsReporting` from dictionaries.
    public func importUniqueObjectsReporting<T: ImportableUniqueObject>(_ into: Into<T>, sourceArray: [[String: Any]]) throws -> ImportReport<T>
    where T.ImportSource: JSONImportPayload {
        try importUniqueObjectsReporting(into, sourceArray: try payloads(T.ImportSource.self, sourceArray))
    }

    private func payloads<P: JSONImportPayload>(_ type: P.Type, _ sources: [[String: Any]]) throws -> [P] {
        var payloads: [P] = []
        payloads.reserveCapacity(sources.count)
        for (index, source) in sources.enumerated() { payloads.append(try P(jsonObject: source, index: index)) }
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
