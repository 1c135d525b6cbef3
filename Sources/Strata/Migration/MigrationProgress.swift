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
    /// Rows of `entity` in all (0 when no custom step is running).
    public let rowCount: Int
    /// Whether the whole migration is done (and committed).
    public let isFinished: Bool

    /// The share of the work done, from 0 to 1: whole steps, and the rows of the running custom step.
    public var fractionCompleted: Double {
        if stepCount == 0 || isFinished { return 1 }
        let rows = rowCount > 0 ? Double(rowsDone) / Double(rowCount) : 0
        return min(1, (Double(step) + rows) / Double(stepCount))
    }

    init(step: Int, stepCount: Int, sourceVersion: String, destinationVersion: String, entity: String? = nil, rowsDone: Int = 0,
         rowCount: Int = 0, isFinished: Bool = false) {
        self.step = step
        self.stepCount = stepCount
        self.sourceVersion = sourceVersion
        self.destinationVersion = destinationVersion
        self.entity = entity
        self.rowsDone = rowsDone
        self.rowCount = rowCount
        self.isFinished = isFinished
    }
}
