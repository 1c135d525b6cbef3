/// One problem found in a model, positioned at the file, line and column it concerns.
public struct Diagnostic: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// How serious a problem is.
    public enum Severity: String, Hashable, Sendable, Codable {
        /// The model cannot be used until this is fixed.
        case error
        /// The model works, but probably not as its author meant.
        case warning
    }

    /// Where the problem is.
    public var location: SourceLocation
    /// Error or warning.
    public var severity: Severity
    /// What is wrong, in one sentence, with any "did you mean" hint appended.
    public var message: String

    /// Creates a diagnostic.
    public init(_ severity: Severity, at location: SourceLocation, _ message: String) {
        self.location = location
        self.severity = severity
        self.message = message
    }

    /// `path:line:column: error: message`, the form compilers and editors understand.
    public var description: String { "\(location): \(severity.rawValue): \(message)" }

    /// Orders by position, then severity, then message, so reports are stable.
    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        if lhs.location != rhs.location { return lhs.location < rhs.location }
        if lhs.severity != rhs.severity { return lhs.severity == .error }
        return lhs.message < rhs.message
    }
}

/// Collects diagnostics while a model is read and checked, so every problem is reported in one run.
public struct Diagnostics: Sendable {
    /// Everything collected so far, in the order found.
    public private(set) var all: [Diagnostic] = []

    /// Creates an empty collection.
    public init() {}

    /// Records an error.
    public mutating func error(_ message: String, at location: SourceLocation) {
        all.append(Diagnostic(.error, at: location, message))
    }

    /// Records a warning.
    public mutating func warning(_ message: String, at location: SourceLocation) {
        all.append(Diagnostic(.warning, at: location, message))
    }

    /// Records a diagnostic as it is.
    public mutating func append(_ diagnostic: Diagnostic) {
        all.append(diagnostic)
    }

    /// Records several diagnostics.
    public mutating func append(contentsOf diagnostics: [Diagnostic]) {
        all.append(contentsOf: diagnostics)
    }

    /// Whether any error (not just warnings) was recorded.
    public var hasErrors: Bool { all.contains { $0.severity == .error } }

    /// The diagnostics sorted by file, line and column, duplicates removed.
    public var sorted: [Diagnostic] { Array(Set(all)).sorted() }
}
