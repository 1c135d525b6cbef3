import Foundation
import Synchronization

/// How serious a log message is.
public enum LogLevel: Int, Sendable, Comparable, CustomStringConvertible {
    /// Step-by-step detail: each commit's counts, each storage opened.
    case trace
    /// Something worth knowing: a storage added, a store recreated.
    case notice
    /// Something probably wrong: a failed commit, a read that was skipped.
    case warning
    /// A programming error about to stop the process.
    case fatal

    /// Less serious first: trace, notice, warning, fatal.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `trace`, `notice`, `warning`, `fatal`.
    public var description: String {
        switch self {
        case .trace: return "trace"
        case .notice: return "notice"
        case .warning: return "warning"
        case .fatal: return "fatal"
        }
    }
}

/// Where Strata's log messages go. Set ``StrataDefaults/logger`` to your own, or to the swift-log
/// bridge in the `StrataSwiftLog` product.
public protocol StrataLogger: Sendable {
    /// Records a message; `message` is only evaluated when the level is enabled.
    func log(level: LogLevel, message: @autoclosure () -> String, file: StaticString, line: UInt)

    /// Records an error Strata is about to report (a transaction rolled back), with the error
    /// value itself, as CoreStore's `log(error:message:)`. By default, a `warning` reading
    /// `message: error`.
    func log(error: StrataError, message: @autoclosure () -> String, file: StaticString, line: UInt)

    /// Records a failed check of a programming error just before Strata stops the process (a
    /// setter outside a transaction, an abstract entity created), as CoreStore's `assert`. By
    /// default, a `fatal` message when `condition` is false.
    func assert(_ condition: @autoclosure () -> Bool, message: @autoclosure () -> String, file: StaticString, line: UInt)
}

extension StrataLogger {
    /// Logs the error as a `warning`: `message: error`.
    public func log(error: StrataError, message: @autoclosure () -> String, file: StaticString, line: UInt) {
        log(level: .warning, message: message() + ": " + error.description, file: file, line: line)
    }

    /// Logs `message` as `fatal` when `condition` is false.
    public func assert(_ condition: @autoclosure () -> Bool, message: @autoclosure () -> String, file: StaticString, line: UInt) {
        if !condition() { log(level: .fatal, message: message(), file: file, line: line) }
    }
}

/// Writes messages at or above a level to standard error as `[Strata] warning: ...`.
public struct ConsoleLogger: StrataLogger {
    /// The least serious level written.
    public var minimumLevel: LogLevel

    /// A console logger; warnings and above by default (`ConsoleLogger(minimumLevel: .notice)`
    /// also writes what a stack does as it opens and migrates its stores).
    public init(minimumLevel: LogLevel = .warning) {
        self.minimumLevel = minimumLevel
    }

    /// Writes the message when its level is enabled.
    public func log(level: LogLevel, message: @autoclosure () -> String, file: StaticString, line: UInt) {
        guard level >= minimumLevel else { return }
        FileHandle.standardError.write(Data("[Strata] \(level): \(message())\n".utf8))
    }
}

/// Process-wide settings.
public enum StrataDefaults {
    private static let current = Mutex<any StrataLogger>(ConsoleLogger())
    private static let defaultStack = Mutex<DataStack?>(nil)

    /// The app's stack, for code written against CoreStore's `CoreStoreDefaults.dataStack`: set it
    /// once at launch (`StrataDefaults.dataStack = DataStack(MyModel.schemaHistory)`), then use it
    /// anywhere (`try await StrataDefaults.dataStack.perform { ... }`). Reading it before it is set
    /// is a programming error that traps, saying so (a stack needs the app's model).
    public static var dataStack: DataStack {
        get {
            guard let stack = defaultStack.withLock({ $0 }) else {
                misuse("Strata: StrataDefaults.dataStack was read before it was set; "
                       + "set it at launch: StrataDefaults.dataStack = DataStack(MyModel.schemaHistory)")
            }
            return stack
        }
        set { defaultStack.withLock { $0 = newValue } }
    }

    /// The logger every stack uses; a ``ConsoleLogger`` at `warning` unless you set another.
    public static var logger: any StrataLogger {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}

/// Logs through the current logger.
func log(_ level: LogLevel, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    StrataDefaults.logger.log(level: level, message: message(), file: file, line: line)
}
