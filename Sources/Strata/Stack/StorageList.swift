import Synchronization

/// The storages of a stack: read by every transaction on every writer lane, several times each,
/// and changed only when a storage is added. Readers load the current list without taking a lock
/// (behind a mutex, eight lanes writing side by side queued for it many times a transaction);
/// additions publish a new list under one.
final class StorageList: Sendable {
    /// One published state of the list, with what every transaction asks of it.
    final class Snapshot: Sendable {
        let handles: [StorageHandle]
        /// How many transactions of the stack may run at once: the least any storage allows (one
        /// unless every storage writes side by side), and one before any storage is added.
        let writerCapacity: Int
        /// How long kept connections may sit unused before they are closed: the shortest of the
        /// storages' idle timeouts, or nil (kept) when a storage keeps its connections.
        let idleTimeout: Duration?

        init(_ handles: [StorageHandle]) {
            self.handles = handles
            writerCapacity = handles.map(\.backend.maximumWriters).min() ?? 1
            let timeouts = handles.map(\.backend.idleTimeout)
            idleTimeout = timeouts.isEmpty || timeouts.contains(nil) ? nil : timeouts.compactMap { $0 }.min()
        }
    }

    /// The snapshot readers load, unretained: `published` keeps it alive.
    private let current: Atomic<Unmanaged<Snapshot>>
    /// Every snapshot ever published, the current one last, kept while the list lives: a reader
    /// may still be taking the one it loaded when another is published, so none is freed before
    /// the stack is (a stack publishes one per storage it adds, a handful in its life).
    private let published: Mutex<[Snapshot]>

    init() {
        let empty = Snapshot([])
        current = Atomic(Unmanaged.passUnretained(empty))
        published = Mutex([empty])
    }

    /// The storages as they are now.
    var snapshot: Snapshot {
        current.load(ordering: .acquiring).takeUnretainedValue()
    }

    /// Runs `body` on the storages with no other change under way; what it leaves in the list
    /// is published (when it changed it).
    func update<Result, Failure: Error>(_ body: (inout [StorageHandle]) throws(Failure) -> Result) throws(Failure) -> Result {
        try published.withLock { (all: inout [Snapshot]) throws(Failure) -> Result in
            let before = all[all.count - 1].handles
            var handles = before
            let result = try body(&handles)
            if handles.map(ObjectIdentifier.init) != before.map(ObjectIdentifier.init) {
                let next = Snapshot(handles)
                all.append(next)
                current.store(Unmanaged.passUnretained(next), ordering: .releasing)
            }
            return result
        }
    }
}
