/// A storage another Strata module builds on one Strata opens (`CloudStore` in `StrataCloud` is a
/// SQLite file that syncs): the stack opens ``underlyingStorage`` and then tells the wrapper, which
/// starts its own work over the stack.
package protocol StorageWrapper: StorageInterface {
    /// The storage the stack opens.
    var underlyingStorage: any StorageInterface { get }

    /// Called once the underlying storage is open in `stack`; throwing fails the `addStorage`
    /// (the storage stays added, and the wrapper's work does not start).
    func didAdd(to stack: DataStack) async throws(StrataError)
}
