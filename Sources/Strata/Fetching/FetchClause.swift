/// A clause passed as its own argument after a `From`, as CoreStore code writes fetches:
/// `stack.fetchAll(From<Person>(), Where<Person>(\.age > 30), OrderBy<Person>(.ascending(\.name)))`.
///
/// `Where`, `OrderBy` and `Tweak` are fetch clauses. They apply in the order given: conditions
/// must all hold, sort keys append, and a later `Tweak` replaces an earlier one. A clause written
/// for an entity refines fetches of that entity and of its subentities (`Where<Animal>` in a
/// fetch of `Dog`); a clause of any other entity makes the fetch fail with
/// ``StrataError/invalidQuery(_:)`` naming both. The chained form,
/// `From<Person>().where(\.age > 30)`, checks the entity at compile time instead.
public protocol FetchClause: Sendable {
    /// The fetch with this clause added; throws when the clause cannot refine a fetch of `T`.
    func refine<T: StrataObject>(_ fetch: FetchChainBuilder<T>) throws(StrataError) -> FetchChainBuilder<T>
}

/// A clause passed as its own argument after a query's `From` and `Select`:
/// `stack.queryValue(From<Person>(), Select<Person, Int16>(.maximum(\.age)), Where<Person>(\.name != ""))`.
///
/// `Where`, `OrderBy`, `Tweak` and `GroupBy` are query clauses, applied in the order given with
/// the entity rule of ``FetchClause``.
public protocol QueryClause: Sendable {
    /// The query with this clause added; throws when the clause cannot refine a query of `T`.
    func refine<T: StrataObject, R>(_ query: QueryChainBuilder<T, R>) throws(StrataError) -> QueryChainBuilder<T, R>
}

/// Throws unless a clause written for `Clause` can refine a fetch of `Fetched`: the same entity or
/// one of its subentities.
private func requireApplicable<Clause: StrataObject, Fetched: StrataObject>(_ clause: String, of _: Clause.Type,
                                                                            to _: Fetched.Type) throws(StrataError) {
    guard Fetched.self is Clause.Type else {
        throw .invalidQuery("\(clause)<\(Clause.entityName)> cannot refine a fetch of '\(Fetched.entityName)'; "
                            + "a clause's entity must be the fetched entity or one it inherits from")
    }
}

extension Where: FetchClause, QueryClause {
    /// This condition for a fetch of `U`, which must be `T` or one of its subentities.
    func retyped<U: StrataObject>(for _: U.Type) throws(StrataError) -> Where<U> {
        try requireApplicable("Where", of: T.self, to: U.self)
        return Where<U>(expression)
    }

    /// The fetch with this condition added.
    public func refine<U: StrataObject>(_ fetch: FetchChainBuilder<U>) throws(StrataError) -> FetchChainBuilder<U> {
        fetch.where(try retyped(for: U.self))
    }

    /// The query with this condition added.
    public func refine<U: StrataObject, R>(_ query: QueryChainBuilder<U, R>) throws(StrataError) -> QueryChainBuilder<U, R> {
        query.where(try retyped(for: U.self))
    }
}

extension OrderBy: FetchClause, QueryClause {
    /// These sort keys for a fetch of `U`, which must be `T` or one of its subentities.
    func retyped<U: StrataObject>(for _: U.Type) throws(StrataError) -> OrderBy<U> {
        try requireApplicable("OrderBy", of: T.self, to: U.self)
        return OrderBy<U>(sortKeys.map { OrderBy<U>.SortKey(path: $0.path, ascending: $0.ascending) })
    }

    /// The fetch with these sort keys appended.
    public func refine<U: StrataObject>(_ fetch: FetchChainBuilder<U>) throws(StrataError) -> FetchChainBuilder<U> {
        fetch.orderBy(try retyped(for: U.self))
    }

    /// The query with these sort keys appended.
    public func refine<U: StrataObject, R>(_ query: QueryChainBuilder<U, R>) throws(StrataError) -> QueryChainBuilder<U, R> {
        query.orderBy(try retyped(for: U.self))
    }
}

extension Tweak: FetchClause, QueryClause {
    /// The fetch with its adjustments replaced by these.
    public func refine<U: StrataObject>(_ fetch: FetchChainBuilder<U>) throws(StrataError) -> FetchChainBuilder<U> {
        fetch.tweak(self)
    }

    /// The query with its adjustments replaced by these.
    public func refine<U: StrataObject, R>(_ query: QueryChainBuilder<U, R>) throws(StrataError) -> QueryChainBuilder<U, R> {
        query.tweak(self)
    }
}

extension GroupBy: QueryClause {
    /// The query with these grouping keys appended.
    public func refine<U: StrataObject, R>(_ query: QueryChainBuilder<U, R>) throws(StrataError) -> QueryChainBuilder<U, R> {
        try requireApplicable("GroupBy", of: T.self, to: U.self)
        var copy = query
        copy.groupBy += paths
        return copy
    }
}

extension From {
    /// The fetch of `T` refined by clauses, in order.
    public func refined(by clauses: [any FetchClause]) throws(StrataError) -> FetchChainBuilder<T> {
        var fetch = chain
        for clause in clauses { fetch = try clause.refine(fetch) }
        return fetch
    }

    /// The query a `Select` describes, refined by clauses, in order.
    public func refined<R>(_ select: Select<T, R>, by clauses: [any QueryClause]) throws(StrataError) -> QueryChainBuilder<T, R> {
        var query = chain.select(select)
        for clause in clauses { query = try clause.refine(query) }
        return query
    }
}
