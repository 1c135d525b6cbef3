import Foundation
import Strata
import Synchronization

/// The test process's logger: it keeps every message and error for tests to look for, and
/// prints only `fatal` messages (those an exit test reads before the process stops), so a test
/// run shows no log line a test did not ask for.
public final class TestLog: StrataLogger {
    /// The logger, installed as ``StrataDefaults/logger`` on first use.
    public static let shared: TestLog = {
        let log = TestLog()
        StrataDefaults.logger = log
        return log
    }()

    /// Installs ``shared``; every helper that makes a stack or a store calls it.
    public static func install() { _ = shared }

    private let messages = Mutex<[(level: LogLevel, text: String)]>([])
    private let errors = Mutex<[StrataError]>([])

    /// Whether a message at `level` reading exactly `text` was logged.
    public func contains(_ level: LogLevel, _ text: String) -> Bool {
        messages.withLock { $0.contains { $0.level == level && $0.text == text } }
    }

    /// Whether `error` was logged as an error value (`log(error:)`).
    public func contains(error: StrataError) -> Bool {
        errors.withLock { $0.contains(error) }
    }

    public func log(level: LogLevel, message: @autoclosure () -> String, file: StaticString, line: UInt) {
        let text = message()
        messages.withLock { $0.append((level, text)) }
        if level == .fatal { FileHandle.standardError.write(Data("[Strata] fatal: \(text)\n".utf8)) }
    }

    public func log(error: StrataError, message: @autoclosure () -> String, file: StaticString, line: UInt) {
        errors.withLock { $0.append(error) }
        log(level: .warning, message: message() + ": " + error.description, file: file, line: line)
    }
}
