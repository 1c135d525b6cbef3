/// The rarely needed state of an object, kept apart so that every object is smaller.
final class ObjectExtras {
    /// Changed columns from 64 on.
    var dirtyHigh: [UInt64]?
    /// Required columns an inserted object's row was written without, while its transaction has
    /// not yet committed (see `StrataObject.firstUnsetRequiredColumn(_:)`).
    var unsetRequired: ColumnSet?
    /// Loaded to-many relationships.
    var toManyKeys: [Int: [ObjectKey]]?
}
