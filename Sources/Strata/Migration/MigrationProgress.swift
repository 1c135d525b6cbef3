/// How far a migration has come: reported as each step starts, every thousand rows of a custom
/// step, and once at the end.
public struct MigrationProgress: Sendable, Hashable {
    /// The step running, from 0; equal to `stepCount` when finished.
    public let step: Int
    /// How many steps the migration has.
    public let stepCount: Int
    /// The version the step starts from.
    public let sourceVersion: String
    /// The version the step ends at.
    public let destinationVersion: String
    /// The entity whose rows a custom step is producing, if one is.
    public let entity: String?
    /// Rows of `entity` done so far.
    public let rowsDone: Int
    /// Whether the whole migration is done (and committed).
    public let isFinished: Bool

    /// The share of the steps done, from 0 to 1.
    public var fractionCompleted: Double {
        stepCount == 0 || isFinished ? 1 : Double(step) / Double(stepCount)
    }
}
