import Strata

/// What happens to a ``CloudStore``, as ``CloudStore/events`` delivers it: CoreStore's eight
/// iCloud events, and sync's progress and failures.
public enum CloudStoreEvent: Sendable, Equatable {
    /// The first sync of this device with content that exists is about to apply its last page.
    case initialImportWillFinish
    /// That first sync finished: the device holds what the server held.
    case initialImportDidFinish
    /// That first sync applied another page: `imported` objects so far, of `total`.
    case initialImportProgress(imported: Int, total: Int)
    /// An account is about to sync with this store.
    case accountWillAdd
    /// The account synced for the first time; `account` is its ID as the server knows it.
    case accountDidAdd(account: String)
    /// The account is about to stop syncing with this store (signed out, or replaced).
    case accountWillRemove
    /// The account stopped syncing; its objects stayed or were erased, as the options say.
    case accountDidRemove
    /// The server removed the content: the local copy is about to be erased.
    case contentWillRemove
    /// The local copy was erased; the store syncs again from what the server holds now.
    case contentDidRemove
    /// A sync finished: `pushed` changes went to the server, `pulled` objects changed here.
    case synced(pushed: Int, pulled: Int)
    /// A sync failed; local commits are kept, and the store tries again (with backoff).
    case failed(StrataError)
    /// The server cannot sync with this app's model version
    /// (`StrataError.syncVersionRefused` says which and
    /// why): the app, or the server, must be updated. Local commits are kept; the store stops
    /// syncing by itself, and syncs again when asked (``CloudStore/sync()``) or restarted.
    case updateRequired(StrataError)
}

/// Told of a ``CloudStore``'s account, content and initial import, on the main actor, as
/// CoreStore's `ICloudStoreObserver` was. Every method is optional.
@MainActor
public protocol CloudStoreObserver: AnyObject, Sendable {
    /// See ``CloudStoreEvent/initialImportWillFinish``.
    func cloudStoreWillFinishInitialImport(_ storage: CloudStore)
    /// See ``CloudStoreEvent/initialImportDidFinish``.
    func cloudStoreDidFinishInitialImport(_ storage: CloudStore)
    /// See ``CloudStoreEvent/accountWillAdd``.
    func cloudStoreWillAddAccount(_ storage: CloudStore)
    /// See ``CloudStoreEvent/accountDidAdd(account:)``.
    func cloudStoreDidAddAccount(_ storage: CloudStore)
    /// See ``CloudStoreEvent/accountWillRemove``.
    func cloudStoreWillRemoveAccount(_ storage: CloudStore)
    /// See ``CloudStoreEvent/accountDidRemove``.
    func cloudStoreDidRemoveAccount(_ storage: CloudStore)
    /// See ``CloudStoreEvent/contentWillRemove``.
    func cloudStoreWillRemoveContent(_ storage: CloudStore)
    /// See ``CloudStoreEvent/contentDidRemove``.
    func cloudStoreDidRemoveContent(_ storage: CloudStore)
    /// See ``CloudStoreEvent/updateRequired(_:)``.
    func cloudStoreRequiresUpdate(_ storage: CloudStore, error: StrataError)
}

extension CloudStoreObserver {
    /// Does nothing.
    public func cloudStoreWillFinishInitialImport(_ storage: CloudStore) {}
    /// Does nothing.
    public func cloudStoreDidFinishInitialImport(_ storage: CloudStore) {}
    /// Does nothing.
    public func cloudStoreWillAddAccount(_ storage: CloudStore) {}
    /// Does nothing.
    public func cloudStoreDidAddAccount(_ storage: CloudStore) {}
    /// Does nothing.
    public func cloudStoreWillRemoveAccount(_ storage: CloudStore) {}
    /// Does nothing.
    public func cloudStoreDidRemoveAccount(_ storage: CloudStore) {}
    /// Does nothing.
    public func cloudStoreWillRemoveContent(_ storage: CloudStore) {}
    /// Does nothing.
    public func cloudStoreDidRemoveContent(_ storage: CloudStore) {}
    /// Does nothing.
    public func cloudStoreRequiresUpdate(_ storage: CloudStore, error: StrataError) {}
}

extension CloudStoreObserver {
    /// Calls the method that matches `event`.
    func receive(_ event: CloudStoreEvent, from storage: CloudStore) {
        switch event {
        case .initialImportWillFinish: cloudStoreWillFinishInitialImport(storage)
        case .initialImportDidFinish: cloudStoreDidFinishInitialImport(storage)
        case .accountWillAdd: cloudStoreWillAddAccount(storage)
        case .accountDidAdd: cloudStoreDidAddAccount(storage)
        case .accountWillRemove: cloudStoreWillRemoveAccount(storage)
        case .accountDidRemove: cloudStoreDidRemoveAccount(storage)
        case .contentWillRemove: cloudStoreWillRemoveContent(storage)
        case .contentDidRemove: cloudStoreDidRemoveContent(storage)
        case .updateRequired(let error): cloudStoreRequiresUpdate(storage, error: error)
        case .initialImportProgress, .synced, .failed: break
        }
    }
}
