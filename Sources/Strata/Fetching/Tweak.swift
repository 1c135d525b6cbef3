/// Fine adjustments of a fetch or query: `Tweak { $0.limit = 10; $0.includesSubentities = false }`.
///
/// CoreStore's `Tweak` hands its closure an `NSFetchRequest`; Strata's hands it this value, which
/// holds the request options that mean something over SQLite, under the same names where Core
/// Data has them (`fetchLimit`, `fetchOffset`, `includesPendingChanges`, `includesSubentities`,
/// `returnsDistinctResults`).
public struct Tweak: Sendable, Hashable {
    /// At most this many results.
    public var limit: Int?
    /// Skip this many results first.
    public var offset: Int?
    /// Inside a transaction, whether results include the transaction's own unsaved changes
    /// (default true). Without them, the fetch reads what is committed.
    public var includesPendingChanges = true
    /// Whether objects of the fetched entity's subentities are included (default true). With
    /// `false`, `From<Animal>()` returns only objects whose entity is `Animal` itself.
    public var includesSubentities = true
    /// For queries: whether rows that select the same values are returned once (default false).
    /// Fetched objects are always distinct, so a fetch is unaffected.
    public var returnsDistinctResults = false

    /// No adjustments.
    public init() {}

    /// Adjustments made by a closure: `Tweak { $0.limit = 10 }`.
    public init(_ adjust: (inout Tweak) -> Void) {
        adjust(&self)
    }

    /// `limit` under Core Data's name: 0 means no limit.
    public var fetchLimit: Int {
        get { limit ?? 0 }
        set { limit = newValue == 0 ? nil : newValue }
    }

    /// `offset` under Core Data's name: 0 skips nothing.
    public var fetchOffset: Int {
        get { offset ?? 0 }
        set { offset = newValue == 0 ? nil : newValue }
    }
}

extension Tweak {
    /// Throws when a limit or offset is negative, which SQLite would read as "no limit" or ignore.
    func validate() throws(StrataError) {
        if let limit, limit < 0 { throw .invalidQuery("a fetch limit must not be negative (it is \(limit))") }
        if let offset, offset < 0 { throw .invalidQuery("a fetch offset must not be negative (it is \(offset))") }
    }
}
