import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where this process keeps the files behind its ``InMemoryStore``s, and the rules that leave
/// none of them behind.
///
/// An in-memory store is a SQLite database in WAL mode, so that the main context and read
/// contexts read one committed state while a transaction writes, which needs a file and its
/// `-wal`/`-shm` (SQLite's own in-memory databases have no WAL). The files live in one folder per
/// process, `strata-memory-<pid>-<UUID>` in the temporary folder, which the process holds with an
/// advisory lock (`flock`) for as long as it runs:
/// - a store's files are deleted when the last stack using it is released;
/// - the folder is deleted when the process exits normally (`exit`, or returning from `main`),
///   even with stacks still alive;
/// - a process that was killed cannot delete anything, but the kernel drops its lock: the next
///   process that opens an in-memory store, and every process that used one as it exits, deletes
///   every such folder whose lock it can take.
enum MemoryStoreFolder {
    /// The start of the folders' names.
    static let prefix = "strata-memory-"

    /// A new, unused path for one store's database file.
    static func newStorePath() throws(StrataError) -> String {
        try folder.get().appendingPathComponent("\(UUID().uuidString).sqlite").path
    }

    /// This process's folder, made (and earlier processes' folders swept) on first use.
    private static let folder: Result<URL, StrataError> = Result { () throws(StrataError) in try make() }

    private static func make() throws(StrataError) -> URL {
        let manager = FileManager.default
        let temporary = manager.temporaryDirectory
        sweep(temporary)
        // Made under a hidden name, locked, then renamed: a sweeping process never sees the
        // folder before its lock is held.
        let name = prefix + "\(getpid())-\(UUID().uuidString)"
        let staging = temporary.appendingPathComponent("." + name)
        let final = temporary.appendingPathComponent(name)
        do {
            try manager.createDirectory(at: staging, withIntermediateDirectories: true)
        } catch {
            throw .fileSystem(path: staging.path, message: "cannot create the folder for in-memory stores: \(error.localizedDescription)")
        }
        let descriptor = open(staging.appendingPathComponent("lock").path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) == 0, rename(staging.path, final.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? manager.removeItem(at: staging)
            throw .fileSystem(path: final.path, message: "cannot set up the folder for in-memory stores: \(reason)")
        }
        // The descriptor stays open (and the lock held) until the process ends.
        exitPath.withLock { $0 = final.path }
        atexit { MemoryStoreFolder.removeAtExit() }
        return final
    }

    /// The folder to delete at exit; set once, read by the exit handler.
    private static let exitPath = Mutex<String?>(nil)

    /// Deletes this process's folder, and the folders of processes that were killed since.
    private static func removeAtExit() {
        guard let path = exitPath.withLock({ $0 }) else { return }
        try? FileManager.default.removeItem(atPath: path)
        sweep(URL(fileURLWithPath: path).deletingLastPathComponent())
    }

    /// Deletes the folders of processes that ended without deleting their own: those whose lock
    /// is free.
    private static func sweep(_ temporary: URL) {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: temporary.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let folder = temporary.appendingPathComponent(name)
            let descriptor = open(folder.appendingPathComponent("lock").path, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { try? manager.removeItem(at: folder) }
            close(descriptor)
        }
    }
}
