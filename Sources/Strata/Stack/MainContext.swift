/// The stack's read-only main context: the objects `DataStack`'s own fetches return, kept up to
/// date by every commit before the commit's completion runs.
@MainActor
final class MainContext {
    let core: StackCore
    lazy var context = ObjectContext(core: core, kind: .main, openConnection: { handle throws(StrataError) in
        try SQLiteConnection(path: handle.path, readOnly: true)
    }, openReader: { handle throws(StrataError) in
        try SQLiteConnection(path: handle.path, readOnly: true)
    })

    nonisolated init(core: StackCore) {
        self.core = core
    }

    /// Brings live objects up to date with a commit: new values in place, deletions marked.
    func apply(_ summary: CommitSummary) {
        guard !summary.isEmpty else { return }
        for (key, change) in summary.updated {
            guard let object = context.registeredObject(key), let layout = object.layout else { continue }
            let identity = (0..<Int32(layout.columns.count)).map { $0 }
            identity.withUnsafeBufferPointer { map in
                var reader = RowReader(.values(change.values), map: map)
                object.readColumns(&reader)
            }
        }
        if summary.relationshipsChanged {
            for object in context.registered.values { object.toManyKeys = nil }
        }
        for key in summary.deleted.keys {
            guard let object = context.registeredObject(key) else { continue }
            object.isDeleted = true
            context.registered[key] = nil
        }
    }
}
