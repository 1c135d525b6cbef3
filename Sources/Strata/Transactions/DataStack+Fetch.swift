/// Fetching from the main context: the objects are live, read-only, and updated by every commit.
extension DataStack {
    /// Every object a fetch finds.
    @MainActor
    public func fetchAll<F: FetchDescription>(_ fetch: F) throws(StrataError) -> [F.Entity] {
        try measuredRead { () throws(StrataError) in try main.context.fetch(fetch.fetchChain) }
    }

    /// The first object a fetch finds.
    @MainActor
    public func fetchOne<F: FetchDescription>(_ fetch: F) throws(StrataError) -> F.Entity? {
        try measuredRead { () throws(StrataError) in try main.context.fetch(fetch.fetchChain.tweak { $0.limit = 1 }).first }
    }

    /// Calls `body` with each object a fetch finds, in order, reading rows as it goes, so a result
    /// of any size is consumed in bounded memory (objects `body` does not keep are let go).
    /// Throws what `body` throws, or a ``StrataError``.
    @MainActor
    public func fetchEach<F: FetchDescription>(_ fetch: F, _ body: (F.Entity) throws -> Void) throws {
        try measuredRead { () throws in try main.context.fetchEach(fetch.fetchChain, body) }
    }

    /// How many objects a fetch finds.
    @MainActor
    public func fetchCount<F: FetchDescription>(_ fetch: F) throws(StrataError) -> Int {
        try measuredRead { () throws(StrataError) in try main.context.count(fetch.fetchChain) }
    }

    /// The IDs of every object a fetch finds.
    @MainActor
    public func fetchObjectIDs<F: FetchDescription>(_ fetch: F) throws(StrataError) -> [ObjectID<F.Entity>] {
        try measuredRead { () throws(StrataError) in try main.context.fetchIDs(fetch.fetchChain) }
    }

    /// The ID of the first object a fetch finds.
    @MainActor
    public func fetchObjectID<F: FetchDescription>(_ fetch: F) throws(StrataError) -> ObjectID<F.Entity>? {
        try measuredRead { () throws(StrataError) in try main.context.fetchIDs(fetch.fetchChain.tweak { $0.limit = 1 }).first }
    }

    /// The main context's instance of the object with an ID; nil when it no longer exists.
    @MainActor
    public func fetchExisting<T: StrataObject>(_ objectID: ObjectID<T>) -> T? {
        (try? main.context.existingObject(objectID.key, entityName: objectID.entityName)) as? T
    }

    /// The main context's instance of an object from any context; nil when it no longer exists.
    @MainActor
    public func fetchExisting<T: StrataObject>(_ object: T) -> T? {
        (try? main.context.existingObject(object.key, entityName: type(of: object).entityName)) as? T
    }

    /// The main context's instances of several objects, skipping those that no longer exist.
    @MainActor
    public func fetchExisting<T: StrataObject, S: Sequence>(_ objects: S) -> [T] where S.Element == T {
        objects.compactMap { fetchExisting($0) }
    }

    // Disfavoured so that an array of IDs, which both forms accept, picks the array form below
    // rather than being ambiguous.
    /// The main context's instances for several IDs, skipping those that no longer exist.
    @MainActor
    @_disfavoredOverload
    public func fetchExisting<T: StrataObject, S: Sequence>(_ objectIDs: S) -> [T] where S.Element == ObjectID<T> {
        objectIDs.compactMap { fetchExisting($0) }
    }

    /// The instances for an array of IDs, skipping those that no longer exist. Needs no type
    /// annotation: `let people = stack.fetchExisting(ids)`.
    @MainActor
    public func fetchExisting<T: StrataObject>(_ objectIDs: [ObjectID<T>]) -> [T] {
        objectIDs.compactMap { fetchExisting($0) }
    }

    /// Runs a main-context read, reporting it to the stack's instrumentation when there is one
    /// (an error that is not a ``StrataError``, thrown by a `fetchEach` body, as a user error).
    @MainActor
    func measuredRead<R, Failure: Error>(_ read: () throws(Failure) -> R) throws(Failure) -> R {
        guard let meter = InstrumentedWork.read(instrumentation, .mainContext) else { return try read() }
        do {
            let value = try read()
            meter.endRead(Result<R, StrataError>.success(value))
            return value
        } catch {
            meter.endRead(Result<R, StrataError>.failure(error as? StrataError ?? .userError(UserError(error))))
            throw error
        }
    }
}
