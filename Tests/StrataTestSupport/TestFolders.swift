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

    /// This run's folder: `strata-test-run-<pid>` in the temporary folder, created on first use.
    public static let root: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-test-run-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        exitPath.withLock { $0 = folder.path }
        atexit { TestFolders.removeAtExit() }
        return folder
    }()

    private static let exitPath = Mutex<String?>(nil)

    /// Deletes this run's folder with `rm -rf`: a PostgreSQL pass leaves a server's data folder of
    /// one database per test (about 100,000 files), which Foundation's `removeItem` deleted at a
    /// few hundred files a second, and `rm` at thousands. (The process's buffered output is
    /// written only after this, so a slow deletion looked like a run that stopped mid-line.)
    private static func removeAtExit() {
        guard let path = exitPath.withLock({ $0 }) else { return }
        _ = try? PostgresTestServer.run("/bin/rm", ["-rf", "--", path], asServerUser: false)
        // What `rm` left (or all of it, when it could not run), Foundation deletes.
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
