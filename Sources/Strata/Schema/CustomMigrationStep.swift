/// The values a custom migration step writes for one new row: the generated `<Entity>Values`
/// structs conform, binding their attributes in the entity's attribute order.
public protocol MigrationValues: Sendable {
    /// Binds every stored attribute of the entity, its ancestors' first, in declaration order.
    func bindColumns(to binder: inout ColumnBinder)
}

/// One `transform: custom` step, bound to the app's implementation: the generator emits one per
/// step, calling the app's `<Model>Migrator`.
public struct CustomMigrationStep: Sendable {
    /// The version migrated from.
    public let sourceVersion: String
    /// The version migrated to.
    public let destinationVersion: String
    /// The entity of the destination version whose rows the step produces.
    public let entity: String
    /// Turns an old row (stored values by storage key) into the new row's values, or nil to leave
    /// the object out.
    public let transform: @Sendable ([String: SQLValue]) throws -> (any MigrationValues)?

    /// Binds a step.
    public init(from sourceVersion: String, to destinationVersion: String, entity: String,
                transform: @escaping @Sendable ([String: SQLValue]) throws -> (any MigrationValues)?) {
        self.sourceVersion = sourceVersion
        self.destinationVersion = destinationVersion
        self.entity = entity
        self.transform = transform
    }
}
