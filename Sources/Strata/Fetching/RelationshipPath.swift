/// A property reached through relationships, for paths longer than a key path literal can name:
/// `\Dog.master ~ \Person.employer ~ \Company.city == "Oslo"` (each to-one relationship is joined
/// once per fetch, however often the path is used). It compares like a key path, sorts
/// (`.ascending(\Dog.master ~ \Person.employer ~ \Company.city)`), and, ending in a to-many
/// relationship, counts (`(\Dog.master ~ \Person.pets).count > 2`) and quantifies
/// (`.any(\Dog.master ~ \Person.pets, \.name == "Rex")`).
public struct RelationshipPath<Root: StrataObject, Value>: Sendable, Hashable, CustomStringConvertible {
    let path: PropertyPath

    /// The dotted path: `master.employer.city`.
    public var description: String { path.description }
}

extension RelationshipPath where Value: Sequence {
    /// The number of objects of the to-many relationship the path ends in.
    public var count: RelationshipPath<Root, Int> {
        RelationshipPath<Root, Int>(path: path.appending("@count"))
    }
}

precedencegroup RelationshipPathPrecedence {
    associativity: left
    higherThan: ComparisonPrecedence
}

/// Chains a to-one relationship with the next step of a path.
infix operator ~ : RelationshipPathPrecedence

/// `\Dog.master ~ \Person.name`: a to-one relationship, then a property of its destination.
public func ~ <A: StrataObject, B: StrataObject, V>(lhs: KeyPath<A, B?>, rhs: KeyPath<B, V>) -> RelationshipPath<A, V> {
    RelationshipPath(path: Where<A>.path(lhs).appending(Where<B>.path(rhs)))
}

/// `path ~ \Company.city`: a path ending in a to-one relationship, then a property of its destination.
public func ~ <A: StrataObject, B: StrataObject, V>(lhs: RelationshipPath<A, B?>, rhs: KeyPath<B, V>) -> RelationshipPath<A, V> {
    RelationshipPath(path: lhs.path.appending(Where<B>.path(rhs)))
}

extension PropertyPath {
    /// This path, then `next`; invalid when either is.
    func appending(_ next: PropertyPath) -> PropertyPath {
        switch (self, next) {
        case (.name(let first), .name(let second)): return .name(first + "." + second)
        case (.invalid, _): return self
        case (_, .invalid): return next
        }
    }

    /// This path, then one more name.
    func appending(_ name: String) -> PropertyPath {
        appending(.name(name))
    }
}

// MARK: - Comparisons

/// `path == value`
public func == <T: StrataObject, V: QueryableAttributeType>(lhs: RelationshipPath<T, V>, rhs: V) -> Where<T> { .compare(lhs.path, "=", rhs) }
/// `path != value`
public func != <T: StrataObject, V: QueryableAttributeType>(lhs: RelationshipPath<T, V>, rhs: V) -> Where<T> { .compare(lhs.path, "<>", rhs) }
/// `path < value`
public func < <T: StrataObject, V: QueryableAttributeType>(lhs: RelationshipPath<T, V>, rhs: V) -> Where<T> { .compare(lhs.path, "<", rhs) }
/// `path <= value`
public func <= <T: StrataObject, V: QueryableAttributeType>(lhs: RelationshipPath<T, V>, rhs: V) -> Where<T> { .compare(lhs.path, "<=", rhs) }
/// `path > value`
public func > <T: StrataObject, V: QueryableAttributeType>(lhs: RelationshipPath<T, V>, rhs: V) -> Where<T> { .compare(lhs.path, ">", rhs) }
/// `path >= value`
public func >= <T: StrataObject, V: QueryableAttributeType>(lhs: RelationshipPath<T, V>, rhs: V) -> Where<T> { .compare(lhs.path, ">=", rhs) }

/// `path == value` on an optional attribute, or `path == nil` (nil also when a relationship on
/// the way is nil).
public func == <T: StrataObject, V: QueryableAttributeType>(lhs: RelationshipPath<T, V?>, rhs: V?) -> Where<T> {
    guard let rhs else { return .null(lhs.path, negated: false) }
    return .compare(lhs.path, "=", rhs)
}

/// `path != value` on an optional attribute (nil values do not match), or `path != nil`.
public func != <T: StrataObject, V: QueryableAttributeType>(lhs: RelationshipPath<T, V?>, rhs: V?) -> Where<T> {
    guard let rhs else { return .null(lhs.path, negated: true) }
    return .compare(lhs.path, "<>", rhs)
}

/// `path == nil`: the path ends in a to-one relationship that is nil (or passes through one).
public func == <T: StrataObject, D: StrataObject>(lhs: RelationshipPath<T, D?>, rhs: _OptionalNilComparisonType) -> Where<T> {
    .null(lhs.path, negated: false)
}

/// `path != nil`: the path ends in a to-one relationship that is set.
public func != <T: StrataObject, D: StrataObject>(lhs: RelationshipPath<T, D?>, rhs: _OptionalNilComparisonType) -> Where<T> {
    .null(lhs.path, negated: true)
}

/// `path ~= [a, b]`: the value is one of the list.
public func ~= <T: StrataObject, V: QueryableAttributeType, S: Sequence>(lhs: RelationshipPath<T, V>, rhs: S) -> Where<T> where S.Element == V {
    .contained(lhs.path, rhs)
}

extension OrderBy.SortKey {
    /// Ascending by a property reached through relationships.
    public static func ascending<V>(_ path: RelationshipPath<T, V>) -> OrderBy.SortKey {
        OrderBy.SortKey(path: path.path, ascending: true)
    }

    /// Descending by a property reached through relationships.
    public static func descending<V>(_ path: RelationshipPath<T, V>) -> OrderBy.SortKey {
        OrderBy.SortKey(path: path.path, ascending: false)
    }
}

// MARK: - To-many conditions

extension Where {
    /// The objects with at least one object in a to-many relationship that meets `condition`:
    /// `.any(\.pets, \.name == "Rex")`.
    public static func any<C: Sequence>(_ relationship: KeyPath<T, C>, _ condition: Where<C.Element>) -> Where<T> where C.Element: StrataObject {
        quantified(path(relationship), .any, condition)
    }

    /// The objects whose every object in a to-many relationship meets `condition` (true when the
    /// relationship is empty; an object whose compared value is nil does not meet it).
    public static func all<C: Sequence>(_ relationship: KeyPath<T, C>, _ condition: Where<C.Element>) -> Where<T> where C.Element: StrataObject {
        quantified(path(relationship), .all, condition)
    }

    /// The objects with no object in a to-many relationship that meets `condition`.
    public static func none<C: Sequence>(_ relationship: KeyPath<T, C>, _ condition: Where<C.Element>) -> Where<T> where C.Element: StrataObject {
        quantified(path(relationship), .none, condition)
    }

    /// `.any` over a to-many relationship at the end of a path.
    public static func any<C: Sequence>(_ relationship: RelationshipPath<T, C>, _ condition: Where<C.Element>) -> Where<T> where C.Element: StrataObject {
        quantified(relationship.path, .any, condition)
    }

    /// `.all` over a to-many relationship at the end of a path.
    public static func all<C: Sequence>(_ relationship: RelationshipPath<T, C>, _ condition: Where<C.Element>) -> Where<T> where C.Element: StrataObject {
        quantified(relationship.path, .all, condition)
    }

    /// `.none` over a to-many relationship at the end of a path.
    public static func none<C: Sequence>(_ relationship: RelationshipPath<T, C>, _ condition: Where<C.Element>) -> Where<T> where C.Element: StrataObject {
        quantified(relationship.path, .none, condition)
    }

    private static func quantified<D>(_ path: PropertyPath, _ quantifier: WhereExpression.Quantifier, _ condition: Where<D>) -> Where<T> {
        switch path {
        case .name(let name): return Where(.quantified(path: name, quantifier: quantifier, condition: condition.expression))
        case .invalid(let invalid): return Where(invalid)
        }
    }
}
