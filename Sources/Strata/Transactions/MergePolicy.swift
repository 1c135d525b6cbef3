/// What an unsafe transaction's commit does with an attribute that another commit changed after
/// the transaction read it, when the transaction changed it too.
///
/// Attributes only the other commit changed always take the stored value, and attributes only
/// this transaction changed are always written: those never conflict. An object that another
/// commit deleted is a conflict under `.error`, and is otherwise marked deleted and its changes
/// dropped. `refreshAndMergeAllObjects()` before changing objects avoids conflicts altogether.
public enum MergePolicy: Sendable, Hashable {
    /// The commit fails with ``StrataError/mergeConflict(objects:)`` naming every object and
    /// attribute in conflict, and nothing is saved. The default: no concurrent change is lost.
    case error
    /// This transaction's value wins, overwriting the other commit's (Core Data's
    /// object-trump policy, which CoreStore's contexts use).
    case keepChanges
    /// The stored value wins, and this transaction's change of that attribute is dropped.
    case keepStore
}
