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

    /// Appends the keys of an `OrderBy`.
    public func orderBy(_ orderBy: OrderBy<T>) -> QueryChainBuilder<T, R> {
        var copy = self
        copy.fetch = fetch.orderBy(orderBy)
        return copy
    }

    /// Adjusts limit, offset, subentities or distinct rows.
    public func tweak(_ adjust: (inout Tweak) -> Void) -> QueryChainBuilder<T, R> {
        var copy = self
        copy.fetch = fetch.tweak(adjust)
        return copy
    }

    /// Replaces the adjustments.
    public func tweak(_ tweak: Tweak) -> QueryChainBuilder<T, R> {
        var copy = self
        copy.fetch = fetch.tweak(tweak)
        return copy
    }

    /// Groups rows by attributes (of any types, or reached through to-one relationships);
    /// aggregates are computed per group.
    public func groupBy(_ keyPaths: PartialKeyPath<T>...) -> QueryChainBuilder<T, R> {
        groupBy(GroupBy(keyPaths))
    }

    /// Groups rows by a `GroupBy`'s attributes.
    public func groupBy(_ clause: GroupBy<T>) -> QueryChainBuilder<T, R> {
        var copy = self
        copy.groupBy += clause.paths
        return copy
    }
}

/// The attributes query rows are grouped by: `GroupBy<Person>(\.age, \.name)`.
public struct GroupBy<T: StrataObject>: Sendable, Hashable, CustomStringConvertible {
    let paths: [PropertyPath]

    /// Groups by the attributes, most significant first.
    public init(_ keyPaths: PartialKeyPath<T>...) {
        self.init(keyPaths)
    }

    /// Groups by the attributes, most significant first.
    public init(_ keyPaths: [PartialKeyPath<T>]) {
        paths = keyPaths.map { Where<T>.path($0) }
    }

    /// The property paths, in order (`age`, `master.name`); a key path that names no stored
    /// property makes the query fail with `invalidQuery`.
    public var keyPaths: [String] { paths.map(\.description) }

    /// `GroupBy<Person>(age, name)`.
    public var description: String { "GroupBy<\(T.entityName)>(\(keyPaths.joined(separator: ", ")))" }
}

/// The terms a query selects and the type `queryValue` returns: `Select<Person, Int>(.count(\.age))`.
public struct Select<T: StrataObject, R>: Sendable, Hashable, CustomStringConvertible {
    /// The terms, in order.
    public let selectTerms: [SelectTerm<T>]

    /// Selects the terms.
    public init(_ terms: SelectTerm<T>...) {
        selectTerms = terms
    }

    /// Selects the terms.
    public init(_ terms: [SelectTerm<T>]) {
        selectTerms = terms
    }

    /// Selects alike: the same terms in the same order.
    public static func == (lhs: Select, rhs: Select) -> Bool { lhs.selectTerms == rhs.selectTerms }

    /// Hashes the terms.
    public func hash(into hasher: inout Hasher) { hasher.combine(selectTerms) }

    /// `Select<Person>(age, count(age) as "n")`.
    public var description: String { "Select<\(T.entityName)>(\(selectTerms.map(\.description).joined(separator: ", ")))" }
}

extension FetchChainBuilder {
    /// The query a `Select` describes.
    public func select<R>(_ clause: Select<T, R>) -> QueryChainBuilder<T, R> {
        QueryChainBuilder(fetch: self, terms: clause.selectTerms)
    }

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
    /// The query a `Select` describes.
    public func select<R>(_ clause: Select<T, R>) -> QueryChainBuilder<T, R> {
        chain.select(clause)
    }

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
