/// One step a store needs to reach the current version, as `DataStack.requiredMigrations(for:)`
/// forecasts it.
public enum MigrationType: Sendable, Hashable, CustomStringConvertible {
    /// Inferred from the two versions and run as SQL.
    case lightweight(sourceVersion: String, destinationVersion: String)
    /// Runs the app's custom steps over some entity's rows, besides the inferred SQL.
    case heavyweight(sourceVersion: String, destinationVersion: String)

    /// The version the step starts from.
    public var sourceVersion: String {
        switch self {
        case .lightweight(let source, _), .heavyweight(let source, _): return source
        }
    }

    /// The version it ends at.
    public var destinationVersion: String {
        switch self {
        case .lightweight(_, let destination), .heavyweight(_, let destination): return destination
        }
    }

    /// Whether the step is inferred only.
    public var isLightweight: Bool {
        if case .lightweight = self { return true }
        return false
    }

    /// Whether the step runs custom steps.
    public var isHeavyweight: Bool { !isLightweight }

    /// `V1 → V2 (lightweight)`.
    public var description: String {
        "\(sourceVersion) → \(destinationVersion) (\(isLightweight ? "lightweight" : "heavyweight"))"
    }
}
