import Foundation
import Synchronization

/// Folders for the tests' files, all inside one folder per test run that is deleted when the
/// test process exits, so a run leaves the temporary folder as it found it, whatever a test
/// forgot or a failure skipped.
public enum TestFolders {
    /// A path for a new folder (not created) named `prefix-<UUID>`, inside this run's folder.
    public static func url(_ prefix: String) -> URL {
        TestLog.install()
        return root.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    }

    /// A path for a new folder (not created) named `prefix-<UUID>` in memory (`/dev/shm`, when the
    /// machine has it), for a database server's data: nothing of it reaches the disk, and deleting
    /// a server's hundred thousand files at exit takes a moment instead of minutes (on a disk
    /// mounted with `discard`, each deleted file is trimmed).
    public static func memoryURL(_ prefix: String) -> URL {
        TestLog.install()
        return (memoryRoot ?? root).appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    }

    /// This run's folder: `strata-test-run-<pid>` in the temporary folder, created on first use.
    public static let root: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(runPrefix)\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        deleteAtExit(folder.path)
        return folder
    }()

    /// This run's folder in memory: `/dev/shm/strata-test-run-<pid>`, readable by a server run as
    /// another user; nil when there is no `/dev/shm`. Folders that runs killed before their exit
    /// left there (their process is gone) are deleted first, since they hold memory.
    private static let memoryRoot: URL? = {
        let shared = "/dev/shm"
        guard access(shared, W_OK) == 0 else { return nil }
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: shared)) ?? [] where entry.hasPrefix(runPrefix) {
            guard let pid = pid_t(entry.dropFirst(runPrefix.count)), kill(pid, 0) != 0, errno == ESRCH else { continue }
            remove(shared + "/" + entry)
        }
        let folder = URL(fileURLWithPath: shared).appendingPathComponent("\(runPrefix)\(getpid())")
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil else { return nil }
        chmod(folder.path, 0o755)
        deleteAtExit(folder.path)
        return folder
    }()

    private static let runPrefix = "strata-test-run-"
    private static let exitPaths = Mutex<[String]>([])

    /// Deletes `path` when the process exits (after what was registered later: servers first).
    private static func deleteAtExit(_ path: String) {
        exitPaths.withLock { paths in
            paths.append(path)
            if paths.count == 1 { atexit { TestFolders.removeAtExit() } }
        }
    }

    private static func removeAtExit() {
        for path in exitPaths.withLock({ $0 }) { remove(path) }
    }

    /// Deletes a folder with `rm -rf` (faster than Foundation's `removeItem`, which is left for
    /// what `rm` could not delete, or when it cannot run).
    private static func remove(_ path: String) {
        _ = try? PostgresTestServer.run("/bin/rm", ["-rf", "--", path], asServerUser: false)
        if FileManager.default.fileExists(atPath: path) { try? FileManager.default.removeItem(atPath: path) }
    }
}

/// Runs blocking work (waiting for a child process) on a thread of its own and awaits it, so that
/// a test does not hold one of the few threads every test's tasks share (as many as cores): two
/// tests blocked there at once would stall every other test of the run until they end.
public func onItsOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
