/// The rarely needed state of an object, kept apart so that every object is smaller.
final class ObjectExtras {
    /// Changed columns from 64 on.
    var dirtyHigh: [UInt64]?
    /// Assigned columns from 64 on.
    var assignedHigh: [UInt64]?
    /// Loaded to-many relationships.
    var toManyKeys: [Int: [ObjectKey]]?
}
