/// The order of fetched objects or queried rows.
public struct OrderBy<T: StrataObject>: Sendable, Hashable {
    /// One sort key.
    public struct SortKey: Sendable, Hashable {
        let path: PropertyPath
        let ascending: Bool

        /// Smallest first.
        public static func ascending<V>(_ keyPath: KeyPath<T, V>) -> SortKey {
            SortKey(path: Where<T>.path(keyPath), ascending: true)
        }

        /// Largest first.
        public static func descending<V>(_ keyPath: KeyPath<T, V>) -> SortKey {
            SortKey(path: Where<T>.path(keyPath), ascending: false)
        }
    }

    /// The keys, most significant first.
    public let sortKeys: [SortKey]

    /// Orders by the keys, most significant first.
    public init(_ sortKeys: SortKey...) {
        self.sortKeys = sortKeys
    }

    /// Orders by the keys, most significant first.
    public init(_ sortKeys: [SortKey]) {
        self.sortKeys = sortKeys
    }

    /// The keys of both, left first.
    public static func + (lhs: OrderBy<T>, rhs: OrderBy<T>) -> OrderBy<T> { OrderBy(lhs.sortKeys + rhs.sortKeys) }

    /// Appends the right side's keys.
    public static func += (lhs: inout OrderBy<T>, rhs: OrderBy<T>) { lhs = lhs + rhs }
}
