/// A query described step by step: `From<Person>().select(.attribute(\.age), .count(\.age)).groupBy(\.age)`.
///
/// `R` is what `queryValue` returns: the value type of a single selected term, or
/// ``QueryAttributes`` for `queryAttributes`.
public struct QueryChainBuilder<T: StrataObject, R>: Sendable {
    var fetch: FetchChainBuilder<T>
    let terms: [SelectTerm<T>]
    var groupBy: [PropertyPath] = []

    init(fetch: FetchChainBuilder<T>, terms: [SelectTerm<T>]) {
        self.fetch = fetch
        self.terms = terms
    }

    /// Adds a condition.
    public func `where`(_ clause: Where<T>) -> QueryChainBuilder<T, R> {
        var copy = self
        copy.fetch = fetch.where(clause)
        return copy
    }

    /// Appends sort keys.
    public func orderBy(_ keys: OrderBy<T>.SortKey...) -> QueryChainBuilder<T, R> {
        var copy = self
        copy.fetch = fetch.orderBy(OrderBy(keys))
        return copy
    }

    /// Adjusts limit and offset.
    public func tweak(_ adjust: (inout Tweak) -> Void) -> QueryChainBuilder<T, R> {
        var copy = self
        copy.fetch = fetch.tweak(adjust)
        return copy
    }

    /// Groups rows by attributes; aggregates are computed per group.
    public func groupBy<V>(_ keyPaths: KeyPath<T, V>...) -> QueryChainBuilder<T, R> {
        var copy = self
        copy.groupBy += keyPaths.map { Where<T>.path($0) }
        return copy
    }
}

extension FetchChainBuilder {
    /// A query of one value of type `R`: `.select(Int.self, .maximum(\.age))`.
    public func select<R: QueryableAttributeType>(_ type: R.Type, _ term: SelectTerm<T>) -> QueryChainBuilder<T, R> {
        QueryChainBuilder(fetch: self, terms: [term])
    }

    /// A query of one attribute: `.select(\.age)`.
    public func select<V: QueryableAttributeType>(_ keyPath: KeyPath<T, V>) -> QueryChainBuilder<T, V> {
        QueryChainBuilder(fetch: self, terms: [.attribute(keyPath)])
    }

    /// A query of several terms, for `queryAttributes`.
    public func select(_ terms: SelectTerm<T>...) -> QueryChainBuilder<T, QueryAttributes> {
        QueryChainBuilder(fetch: self, terms: terms)
    }
}

extension From {
    /// A query of one value of type `R`: `.select(Int.self, .maximum(\.age))`.
    public func select<R: QueryableAttributeType>(_ type: R.Type, _ term: SelectTerm<T>) -> QueryChainBuilder<T, R> {
        chain.select(type, term)
    }

    /// A query of one attribute: `.select(\.age)`.
    public func select<V: QueryableAttributeType>(_ keyPath: KeyPath<T, V>) -> QueryChainBuilder<T, V> {
        chain.select(keyPath)
    }

    /// A query of several terms, for `queryAttributes`.
    public func select(_ terms: SelectTerm<T>...) -> QueryChainBuilder<T, QueryAttributes> {
        QueryChainBuilder(fetch: chain, terms: terms)
    }
}
