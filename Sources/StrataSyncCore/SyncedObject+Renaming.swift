/// Renaming a state's properties, for a client at another model version (see the sync engine's
/// version translation).
extension SyncedObject {
    /// The state with each property (attribute, counter, relationship) renamed by `rename`, or
    /// left out when it returns nil, and each attribute's value passed through `convert` (given
    /// the old name, the new one and the value), or left out when it returns nil.
    package func renaming(_ rename: (String) -> String?, converting convert: (String, String, SyncValue) -> SyncValue?) -> SyncedObject {
        var result = SyncedObject()
        for (name, write) in attributes {
            guard let renamed = rename(name), let value = convert(name, renamed, write.value) else { continue }
            result.attributes[renamed] = StampedValue(value, at: write.stamp)
        }
        for (name, counter) in counters {
            if let renamed = rename(name) { result.counters[renamed] = counter }
        }
        for (name, members) in sets {
            if let renamed = rename(name) { result.sets[renamed] = members }
        }
        for (name, order) in orders {
            if let renamed = rename(name) { result.orders[renamed] = order }
        }
        result.deleted = deleted
        return result
    }
}
