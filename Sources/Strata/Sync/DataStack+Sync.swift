/// What the sync engine asks of a stack: the shapes of its entities, and a hook in the commits of
/// a synced storage.
extension DataStack {
    /// How each entity of the current version is stored, by name.
    package var syncShapes: [String: SyncEntityShape] {
        var shapes: [String: SyncEntityShape] = [:]
        for (name, layout) in core.layout.entities {
            let configurations = core.configurationNames.filter { core.entities(ofConfiguration: $0)?.contains(name) == true }
            shapes[name] = SyncEntityShape(layout: layout, store: core.layout, configurations: configurations)
        }
        return shapes
    }

    /// The SQL dialect of the storage added for `configuration`; nil when none is.
    package func syncDialect(configuration: String) -> SQLDialect? {
        core.storages.first { $0.configuration == configuration }?.backend.dialect
    }

    /// Runs `hook` in every commit that changes objects in the storage added for `configuration`,
    /// replacing the hook it had.
    package func installCommitHook(_ hook: any CommitHook, configuration: String) throws(StrataError) {
        guard let storage = core.storages.first(where: { $0.configuration == configuration }) else {
            throw .unknownConfiguration(configuration, available: core.storages.map(\.configuration))
        }
        core.commitHooks.withLock { $0[storage.index] = hook }
    }

    /// Calls `action` whenever the stack learns that another stack or process committed to one of
    /// its storages (another app server on the same database), starting the watch for such
    /// commits now rather than at the main context's first read. Needs the stack's
    /// `externalCommitCheckInterval`; without one, nothing is watched.
    package func onOtherWritersCommits(_ action: @escaping @Sendable () -> Void) {
        main.watcher.addListener(action)
        main.watcher.start(core: core, main: main)
    }

    /// Stops running `hook` (when it is still installed) in the commits of any storage.
    package func removeCommitHook(_ hook: any CommitHook) {
        core.commitHooks.withLock { hooks in
            hooks = hooks.filter { $0.value !== hook }
        }
    }
}
