/// Running the commit hooks of the storages a commit writes (see ``CommitHook``).
extension ObjectContext {
    /// Inside the open transactions, after every row is written: runs the hook of each storage
    /// the commit changed objects in, and returns the hooks that ran.
    func runCommitHooks() throws(StrataError) -> [any CommitHook] {
        let hooks = core.commitHooks.withLock { $0 }
        guard !hooks.isEmpty else { return [] }
        var ran: [any CommitHook] = []
        for storage in openTransactions.sorted() {
            guard let hook = hooks[storage] else { continue }
            let changes = hookedChanges(in: storage)
            guard !changes.isEmpty else { continue }
            try hook.willCommit(changes, on: try connection(for: storage))
            ran.append(hook)
        }
        return ran
    }

    /// What this commit created, changed and deleted in one storage.
    private func hookedChanges(in storage: Int32) -> [HookedChange] {
        var changes: [HookedChange] = []
        var listed: Set<ObjectKey> = []
        for object in created where !object.deleted && object.key.storage == storage {
            guard let layout = object.layout else { continue }
            listed.insert(object.key)
            changes.append(HookedChange(entity: layout.name, rowID: object.rowID, kind: .inserted, values: Self.currentValues(of: object),
                                        toMany: log.toMany[object.key] ?? [], appliedBySync: log.appliedBySync.contains(ObjectIdentifier(object))))
        }
        for (key, object) in log.updated where key.storage == storage && !object.isInserted && !object.deleted && !listed.contains(key) {
            guard let layout = object.layout else { continue }
            listed.insert(key)
            changes.append(HookedChange(entity: layout.name, rowID: key.rowID, kind: .updated(changed: log.changedColumns[key]?.ordinals ?? []),
                                        values: Self.currentValues(of: object), toMany: log.toMany[key] ?? [],
                                        appliedBySync: log.appliedBySync.contains(ObjectIdentifier(object))))
        }
        for (key, names) in log.toMany where key.storage == storage && !listed.contains(key) {
            guard let object = registered[key], !object.deleted, let layout = object.layout else { continue }
            changes.append(HookedChange(entity: layout.name, rowID: key.rowID, kind: .updated(changed: []),
                                        values: Self.currentValues(of: object), toMany: names,
                                        appliedBySync: log.appliedBySync.contains(ObjectIdentifier(object))))
        }
        for (key, entity) in log.deleted where key.storage == storage {
            changes.append(HookedChange(entity: entity, rowID: key.rowID, kind: .deleted, values: [], toMany: []))
        }
        return changes
    }
}
