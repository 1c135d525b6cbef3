/// Fetches and queries of the main context with clauses as separate arguments, as CoreStore code
/// writes them: `stack.fetchAll(From<Person>(), Where<Person>(\.age > 30), OrderBy<Person>(.ascending(\.name)))`.
/// See ``FetchClause`` for the order clauses apply in and the entity each may name.
extension DataStack {
    /// Every object a fetch finds.
    @MainActor
    public func fetchAll<T>(_ from: From<T>, _ clauses: any FetchClause...) throws(StrataError) -> [T] {
        try fetchAll(from, clauses)
    }

    /// Every object a fetch finds, with the clauses as an array.
    @MainActor
    public func fetchAll<T>(_ from: From<T>, _ clauses: [any FetchClause]) throws(StrataError) -> [T] {
        try fetchAll(from.refined(by: clauses))
    }

    /// The first object a fetch finds.
    @MainActor
    public func fetchOne<T>(_ from: From<T>, _ clauses: any FetchClause...) throws(StrataError) -> T? {
        try fetchOne(from, clauses)
    }

    /// The first object a fetch finds, with the clauses as an array.
    @MainActor
    public func fetchOne<T>(_ from: From<T>, _ clauses: [any FetchClause]) throws(StrataError) -> T? {
        try fetchOne(from.refined(by: clauses))
    }

    /// How many objects a fetch finds.
    @MainActor
    public func fetchCount<T>(_ from: From<T>, _ clauses: any FetchClause...) throws(StrataError) -> Int {
        try fetchCount(from, clauses)
    }

    /// How many objects a fetch finds, with the clauses as an array.
    @MainActor
    public func fetchCount<T>(_ from: From<T>, _ clauses: [any FetchClause]) throws(StrataError) -> Int {
        try fetchCount(from.refined(by: clauses))
    }

    /// The IDs of every object a fetch finds.
    @MainActor
    public func fetchObjectIDs<T>(_ from: From<T>, _ clauses: any FetchClause...) throws(StrataError) -> [ObjectID<T>] {
        try fetchObjectIDs(from, clauses)
    }

    /// The IDs of every object a fetch finds, with the clauses as an array.
    @MainActor
    public func fetchObjectIDs<T>(_ from: From<T>, _ clauses: [any FetchClause]) throws(StrataError) -> [ObjectID<T>] {
        try fetchObjectIDs(from.refined(by: clauses))
    }

    /// The ID of the first object a fetch finds.
    @MainActor
    public func fetchObjectID<T>(_ from: From<T>, _ clauses: any FetchClause...) throws(StrataError) -> ObjectID<T>? {
        try fetchObjectID(from, clauses)
    }

    /// The ID of the first object a fetch finds, with the clauses as an array.
    @MainActor
    public func fetchObjectID<T>(_ from: From<T>, _ clauses: [any FetchClause]) throws(StrataError) -> ObjectID<T>? {
        try fetchObjectID(from.refined(by: clauses))
    }

    /// The first value a query finds, as `R`: `queryValue(From<Person>(), Select<Person, Int16>(.maximum(\.age)))`.
    @MainActor
    public func queryValue<T, R: QueryableAttributeType>(_ from: From<T>, _ select: Select<T, R>,
                                                         _ clauses: any QueryClause...) throws(StrataError) -> R? {
        try queryValue(from, select, clauses)
    }

    /// The first value a query finds, as `R`, with the clauses as an array.
    @MainActor
    public func queryValue<T, R: QueryableAttributeType>(_ from: From<T>, _ select: Select<T, R>,
                                                         _ clauses: [any QueryClause]) throws(StrataError) -> R? {
        try queryValue(from.refined(select, by: clauses))
    }

    /// Every row a query finds, each as keys and typed values.
    @MainActor
    public func queryAttributes<T>(_ from: From<T>, _ select: Select<T, QueryAttributes>, _ clauses: any QueryClause...) throws(StrataError) -> [QueryAttributes] {
        try queryAttributes(from, select, clauses)
    }

    /// Every row a query finds, with the clauses as an array.
    @MainActor
    public func queryAttributes<T>(_ from: From<T>, _ select: Select<T, QueryAttributes>, _ clauses: [any QueryClause]) throws(StrataError) -> [QueryAttributes] {
        try queryAttributes(from.refined(select, by: clauses))
    }
}
