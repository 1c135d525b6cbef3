/// A fetch described step by step: `From<Person>().where(\.age > 30).orderBy(.ascending(\.name))`.
public struct FetchChainBuilder<T: StrataObject>: Sendable, Hashable {
    /// The entity and configuration read.
    public let from: From<T>
    var conditions: [Where<T>] = []
    var sortKeys: [OrderBy<T>.SortKey] = []
    var tweak = Tweak()
    var prefetches: [PropertyPath] = []

    init(from: From<T>) {
        self.from = from
    }

    /// Adds a condition; several conditions must all hold.
    public func `where`(_ clause: Where<T>) -> FetchChainBuilder<T> {
        var copy = self
        copy.conditions.append(clause)
        return copy
    }

    /// Adds a raw SQL condition with bound arguments.
    public func `where`(sql: String, _ arguments: any QueryableAttributeType...) -> FetchChainBuilder<T> {
        self.where(Where(sql: sql, arguments: arguments))
    }

    /// Appends sort keys.
    public func orderBy(_ keys: OrderBy<T>.SortKey...) -> FetchChainBuilder<T> {
        orderBy(OrderBy(keys))
    }

    /// Appends the keys of an `OrderBy`.
    public func orderBy(_ orderBy: OrderBy<T>) -> FetchChainBuilder<T> {
        var copy = self
        copy.sortKeys += orderBy.sortKeys
        return copy
    }

    /// Adjusts limit, offset or pending-change handling.
    public func tweak(_ adjust: (inout Tweak) -> Void) -> FetchChainBuilder<T> {
        var copy = self
        adjust(&copy.tweak)
        return copy
    }

    /// Loads relationships of every fetched object up front: one query per relationship (per 500
    /// objects) instead of one per object on first access. `\.pets`, `\.master`.
    public func prefetch(_ keyPaths: PartialKeyPath<T>...) -> FetchChainBuilder<T> {
        var copy = self
        copy.prefetches += keyPaths.map { Where<T>.path($0) }
        return copy
    }

    /// Replaces the adjustments.
    public func tweak(_ tweak: Tweak) -> FetchChainBuilder<T> {
        var copy = self
        copy.tweak = tweak
        return copy
    }
}

extension From {
    /// Starts a fetch chain with a condition.
    public func `where`(_ clause: Where<T>) -> FetchChainBuilder<T> { FetchChainBuilder(from: self).where(clause) }
    /// Starts a fetch chain with a raw SQL condition.
    public func `where`(sql: String, _ arguments: any QueryableAttributeType...) -> FetchChainBuilder<T> {
        FetchChainBuilder(from: self).where(Where(sql: sql, arguments: arguments))
    }
    /// Starts a fetch chain with sort keys.
    public func orderBy(_ keys: OrderBy<T>.SortKey...) -> FetchChainBuilder<T> { FetchChainBuilder(from: self).orderBy(OrderBy(keys)) }
    /// Starts a fetch chain with an `OrderBy`.
    public func orderBy(_ orderBy: OrderBy<T>) -> FetchChainBuilder<T> { FetchChainBuilder(from: self).orderBy(orderBy) }
    /// Starts a fetch chain that prefetches relationships.
    public func prefetch(_ keyPaths: PartialKeyPath<T>...) -> FetchChainBuilder<T> {
        var chain = FetchChainBuilder(from: self)
        chain.prefetches = keyPaths.map { Where<T>.path($0) }
        return chain
    }
    /// Starts a fetch chain with adjustments.
    public func tweak(_ adjust: (inout Tweak) -> Void) -> FetchChainBuilder<T> { FetchChainBuilder(from: self).tweak(adjust) }
    /// The fetch of every `T`.
    var chain: FetchChainBuilder<T> { FetchChainBuilder(from: self) }

    /// Starts a fetch chain of every storage's `T` with a condition, without `()`:
    /// `From<Person>.where(\.name == "John")`.
    public static func `where`(_ clause: Where<T>) -> FetchChainBuilder<T> { From().where(clause) }
    /// Starts a fetch chain of every storage's `T` with sort keys: `From<Person>.orderBy(.ascending(\.name))`.
    public static func orderBy(_ keys: OrderBy<T>.SortKey...) -> FetchChainBuilder<T> { From().orderBy(OrderBy(keys)) }
    /// Starts a fetch chain of every storage's `T` with adjustments.
    public static func tweak(_ adjust: (inout Tweak) -> Void) -> FetchChainBuilder<T> { From().tweak(adjust) }
}

/// Anything a fetch can be described by: a `From` alone or a chain built from it.
public protocol FetchDescription<Entity>: Sendable {
    /// The entity fetched.
    associatedtype Entity: StrataObject
    /// The fetch as a chain.
    var fetchChain: FetchChainBuilder<Entity> { get }
}

extension From: FetchDescription {
    /// The fetch as a chain.
    public var fetchChain: FetchChainBuilder<T> { chain }
}

extension FetchChainBuilder: FetchDescription {
    /// The fetch as a chain.
    public var fetchChain: FetchChainBuilder<T> { self }
}
