import Logging
import Strata

/// Sends Strata's log messages to swift-log: `StrataDefaults.logger = SwiftLogLogger(Logger(label: "strata"))`.
///
/// Levels map as trace → `.trace`, notice → `.notice`, warning → `.warning`, fatal → `.critical`.
public struct SwiftLogLogger: StrataLogger {
    /// The swift-log logger messages go to.
    public let logger: Logger

    /// A bridge to `logger`.
    public init(_ logger: Logger) {
        self.logger = logger
    }

    /// Writes the message when its level is enabled.
    public func log(level: LogLevel, message: @autoclosure () -> String, file: StaticString, line: UInt) {
        let mapped: Logger.Level
        switch level {
        case .trace: mapped = .trace
        case .notice: mapped = .notice
        case .warning: mapped = .warning
        case .fatal: mapped = .critical
        }
        logger.log(level: mapped, "\(message())", file: "\(file)", function: "", line: line)
    }
}
