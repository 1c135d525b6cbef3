/// What transactions and read contexts share: fetching and querying their own context. A read
/// that fails leaves the context usable: in a transaction, the app may catch the error and go on.
public class FetchingContext {
    @usableFromInline
    let context: ObjectContext

    init(context: ObjectContext) {
        self.context = context
    }

    /// Every object a fetch finds.
    public func fetchAll<F: FetchDescription>(_ fetch: F) throws(StrataError) -> [F.Entity] {
        try context.guardingReads { () throws(StrataError) in try context.fetch(fetch.fetchChain) }
    }

    /// The first object a fetch finds.
    public func fetchOne<F: FetchDescription>(_ fetch: F) throws(StrataError) -> F.Entity? {
        try context.guardingReads { () throws(StrataError) in try context.fetch(fetch.fetchChain.tweak { $0.limit = 1 }).first }
    }

    /// Calls `body` with each object a fetch finds, in order, reading rows as it goes, so a result
    /// of any size is consumed in bounded memory (objects `body` does not keep are let go).
    /// Throws what `body` throws, or a ``StrataError``.
    public func fetchEach<F: FetchDescription>(_ fetch: F, _ body: (F.Entity) throws -> Void) throws {
        try context.guardingReads { try context.fetchEach(fetch.fetchChain, body) }
    }

    /// How many objects a fetch finds.
    public func fetchCount<F: FetchDescription>(_ fetch: F) throws(StrataError) -> Int {
        try context.guardingReads { () throws(StrataError) in try context.count(fetch.fetchChain) }
    }

    /// The IDs of every object a fetch finds.
    public func fetchObjectIDs<F: FetchDescription>(_ fetch: F) throws(StrataError) -> [ObjectID<F.Entity>] {
        try context.guardingReads { () throws(StrataError) in try context.fetchIDs(fetch.fetchChain) }
    }

    /// The ID of the first object a fetch finds.
    public func fetchObjectID<F: FetchDescription>(_ fetch: F) throws(StrataError) -> ObjectID<F.Entity>? {
        try context.guardingReads { () throws(StrataError) in try context.fetchIDs(fetch.fetchChain.tweak { $0.limit = 1 }).first }
    }

    /// The first value a query finds, as `R`.
    public func queryValue<T: StrataObject, R: QueryableAttributeType>(_ query: QueryChainBuilder<T, R>) throws(StrataError) -> R? {
        try context.guardingReads { () throws(StrataError) in try context.queryValue(query) }
    }

    /// Every row a query finds, each as keys and typed values.
    public func queryAttributes<T: StrataObject, R>(_ query: QueryChainBuilder<T, R>) throws(StrataError) -> [QueryAttributes] {
        try context.guardingReads { () throws(StrataError) in try context.queryAttributes(query) }
    }

    /// This context's instance of the object with an ID; nil when it no longer exists.
    public func fetchExisting<T: StrataObject>(_ objectID: ObjectID<T>) -> T? {
        (try? context.existingObject(objectID.key, entityName: objectID.entityName)) as? T
    }

    // Disfavoured so that an array of IDs, which both forms accept, picks the array form below
    // rather than being ambiguous.
    /// This context's instances for several IDs, skipping those that no longer exist.
    @_disfavoredOverload
    public func fetchExisting<T: StrataObject, S: Sequence>(_ objectIDs: S) -> [T] where S.Element == ObjectID<T> {
        objectIDs.compactMap { fetchExisting($0) }
    }

    /// This context's instances for an array of IDs, skipping those that no longer exist. Needs
    /// no type annotation: `let people = transaction.fetchExisting(ids)`.
    public func fetchExisting<T: StrataObject>(_ objectIDs: [ObjectID<T>]) -> [T] {
        objectIDs.compactMap { fetchExisting($0) }
    }
}
