import StrataSchema
/// An error or warning of a conversion, at the place in a Core Data model file it is about when
/// there is one: `Model.xcdatamodel/contents:12:9: warning: ...`, the form editors and build
/// logs link to.
public struct ConversionDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// How serious it is.
    public enum Severity: String, Sendable, Hashable {
        /// Nothing is written.
        case error
        /// Written, but something was not carried over as it was.
        case warning
    }

    /// How serious it is.
    public let severity: Severity
    /// Where it is, when it is about one place.
    public let position: SourceLocation?
    /// What happened, naming the entity and property.
    public let message: String

    /// A diagnostic.
    public init(_ severity: Severity, _ message: String, at position: SourceLocation? = nil) {
        self.severity = severity
        self.message = message
        self.position = position
    }

    /// `path:line:column: warning: message`, or `warning: message` without a place.
    public var description: String {
        (position.map { "\($0): " } ?? "") + "\(severity.rawValue): \(message)"
    }
}
