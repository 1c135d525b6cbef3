/// A to-many relationship, or a property of its objects, quantified as a value that compares:
/// `(\Dog.master ~ \Person.pets).any() == rex` (some pet of the dog's master is Rex),
/// `(\Person.pets ~ \Dog.name).all() != ""` (every pet has a name), as CoreStore's
/// `.any()`, `.all()` and `.none()` key paths do. Its description is CoreStore's:
/// `ANY master.pets`, `ALL pets.name`.
///
/// A comparison builds the same condition as `Where.any`, `Where.all` or `Where.none` with a
/// condition over the relationship's objects: `.any() == x` is `.any(path, member == x)`.
public struct QuantifiedPath<Root: StrataObject, Value>: Sendable, Hashable, CustomStringConvertible {
    let relationship: PropertyPath
    /// The property of the relationship's objects compared; nil to compare the objects themselves.
    let member: PropertyPath?
    let quantifier: WhereExpression.Quantifier

    init(_ relationship: PropertyPath, _ member: PropertyPath?, _ quantifier: WhereExpression.Quantifier) {
        self.relationship = relationship
        self.member = member
        self.quantifier = quantifier
    }

    /// `ANY master.pets`, `ALL pets.name`, `NONE pets`.
    public var description: String {
        let path = member.map { relationship.appending($0) } ?? relationship
        return quantifier.rawValue.uppercased() + " " + path.description
    }

    /// The quantified condition whose objects must meet `element`, built on the compared
    /// property's name (the objects' own ids when the path compares objects).
    func condition(_ element: (String) -> WhereExpression) -> Where<Root> {
        switch (relationship, member ?? .name(PropertyPath.identity)) {
        case (.name(let path), .name(let compared)):
            return Where(.quantified(path: path, quantifier: quantifier, condition: element(compared)))
        case (.invalid(let invalid), _), (_, .invalid(let invalid)):
            return Where(invalid)
        }
    }

    fileprivate func comparing<V: QueryableAttributeType>(_ op: String, _ value: V) -> Where<Root> {
        condition { .compare(path: $0, op: op, value: value.sqlValue, style: V.comparison) }
    }
}

/// A to-many relationship followed by a property of its objects, to quantify:
/// `(\Person.pets ~ \Dog.name).any() == "Rex"`. `Element` is the relationship's entity.
public struct ToManyMemberPath<Root: StrataObject, Element: StrataObject, Value>: Sendable, Hashable, CustomStringConvertible {
    let relationship: PropertyPath
    let member: PropertyPath

    /// `pets.name`.
    public var description: String { relationship.appending(member).description }

    /// Some object's property meets the comparison.
    public func any() -> QuantifiedPath<Root, Value> { .init(relationship, member, .any) }
    /// Every object's property meets the comparison (true for no objects).
    public func all() -> QuantifiedPath<Root, Value> { .init(relationship, member, .all) }
    /// No object's property meets the comparison.
    public func none() -> QuantifiedPath<Root, Value> { .init(relationship, member, .none) }
}

/// `\Person.pets ~ \Dog.name`: a to-many relationship, then a property of its objects.
public func ~ <A: StrataObject, C: Sequence, V>(lhs: KeyPath<A, C>, rhs: KeyPath<C.Element, V>) -> ToManyMemberPath<A, C.Element, V>
    where C.Element: StrataObject {
    ToManyMemberPath(relationship: Where<A>.path(lhs), member: Where<C.Element>.path(rhs))
}

/// `\Dog.master ~ \Person.pets ~ \Dog.name`: a path ending in a to-many relationship, then a
/// property of its objects.
public func ~ <A: StrataObject, C: Sequence, V>(lhs: RelationshipPath<A, C>, rhs: KeyPath<C.Element, V>) -> ToManyMemberPath<A, C.Element, V>
    where C.Element: StrataObject {
    ToManyMemberPath(relationship: lhs.path, member: Where<C.Element>.path(rhs))
}

extension RelationshipPath where Value: Sequence, Value.Element: StrataObject {
    /// Some object of the to-many relationship the path ends in meets the comparison.
    public func any() -> QuantifiedPath<Root, Value.Element> { .init(path, nil, .any) }
    /// Every object meets the comparison (true for no objects).
    public func all() -> QuantifiedPath<Root, Value.Element> { .init(path, nil, .all) }
    /// No object meets the comparison.
    public func none() -> QuantifiedPath<Root, Value.Element> { .init(path, nil, .none) }
}

extension KeyPath where Root: StrataObject, Value: Sequence, Value.Element: StrataObject {
    /// Some object of the to-many relationship meets the comparison: `(\Person.pets).any() == rex`.
    public func any() -> QuantifiedPath<Root, Value.Element> { .init(Where<Root>.path(self), nil, .any) }
    /// Every object meets the comparison (true for no objects).
    public func all() -> QuantifiedPath<Root, Value.Element> { .init(Where<Root>.path(self), nil, .all) }
    /// No object meets the comparison.
    public func none() -> QuantifiedPath<Root, Value.Element> { .init(Where<Root>.path(self), nil, .none) }
}

extension PropertyPath {
    /// The name a condition over an entity uses for its objects' own ids.
    static let identity = "@id"
}

// MARK: - Comparisons

/// `(\.pets ~ \.name).any() == "Rex"`
public func == <T: StrataObject, V: QueryableAttributeType>(lhs: QuantifiedPath<T, V>, rhs: V) -> Where<T> { lhs.comparing("=", rhs) }
/// `(\.pets ~ \.name).all() != ""`
public func != <T: StrataObject, V: QueryableAttributeType>(lhs: QuantifiedPath<T, V>, rhs: V) -> Where<T> { lhs.comparing("<>", rhs) }
/// `(\.pets ~ \.age).any() < 3`
public func < <T: StrataObject, V: QueryableAttributeType>(lhs: QuantifiedPath<T, V>, rhs: V) -> Where<T> { lhs.comparing("<", rhs) }
/// `(\.pets ~ \.age).all() <= 3`
public func <= <T: StrataObject, V: QueryableAttributeType>(lhs: QuantifiedPath<T, V>, rhs: V) -> Where<T> { lhs.comparing("<=", rhs) }
/// `(\.pets ~ \.age).any() > 3`
public func > <T: StrataObject, V: QueryableAttributeType>(lhs: QuantifiedPath<T, V>, rhs: V) -> Where<T> { lhs.comparing(">", rhs) }
/// `(\.pets ~ \.age).none() >= 3`
public func >= <T: StrataObject, V: QueryableAttributeType>(lhs: QuantifiedPath<T, V>, rhs: V) -> Where<T> { lhs.comparing(">=", rhs) }

/// `(\.pets ~ \.name).any() ~= ["Rex", "Fido"]`: the property is one of the list.
public func ~= <T: StrataObject, V: QueryableAttributeType, S: Sequence>(lhs: QuantifiedPath<T, V>, rhs: S) -> Where<T> where S.Element == V {
    lhs.condition { .contained(path: $0, values: rhs.map(\.sqlValue), style: V.comparison) }
}

/// `(\.pets ~ \.nickname).any() == "Rex"` on an optional property (nil values do not match).
public func == <T: StrataObject, V: QueryableAttributeType>(lhs: QuantifiedPath<T, V?>, rhs: V) -> Where<T> { lhs.comparing("=", rhs) }
/// `!=` on an optional property (nil values do not match).
public func != <T: StrataObject, V: QueryableAttributeType>(lhs: QuantifiedPath<T, V?>, rhs: V) -> Where<T> { lhs.comparing("<>", rhs) }
/// `<` on an optional property.
public func < <T: StrataObject, V: QueryableAttributeType>(lhs: QuantifiedPath<T, V?>, rhs: V) -> Where<T> { lhs.comparing("<", rhs) }
/// `<=` on an optional property.
public func <= <T: StrataObject, V: QueryableAttributeType>(lhs: QuantifiedPath<T, V?>, rhs: V) -> Where<T> { lhs.comparing("<=", rhs) }
/// `>` on an optional property.
public func > <T: StrataObject, V: QueryableAttributeType>(lhs: QuantifiedPath<T, V?>, rhs: V) -> Where<T> { lhs.comparing(">", rhs) }
/// `>=` on an optional property.
public func >= <T: StrataObject, V: QueryableAttributeType>(lhs: QuantifiedPath<T, V?>, rhs: V) -> Where<T> { lhs.comparing(">=", rhs) }
/// `~=` on an optional property.
public func ~= <T: StrataObject, V: QueryableAttributeType, S: Sequence>(lhs: QuantifiedPath<T, V?>, rhs: S) -> Where<T> where S.Element == V {
    lhs.condition { .contained(path: $0, values: rhs.map(\.sqlValue), style: V.comparison) }
}

/// `(\Dog.master ~ \Person.pets).any() == rex`: the relationship holds the object.
public func == <T: StrataObject, D: StrataObject>(lhs: QuantifiedPath<T, D>, rhs: D) -> Where<T> {
    lhs.comparing("=", rhs.key.rowID)
}

/// `(\Person.pets).none() == rex`-style comparisons by ID: the relationship holds the object with the ID.
public func == <T: StrataObject, D: StrataObject>(lhs: QuantifiedPath<T, D>, rhs: ObjectID<D>) -> Where<T> {
    lhs.comparing("=", rhs.key.rowID)
}

/// `(\Person.pets).all() != rex`: the objects are not the one given.
public func != <T: StrataObject, D: StrataObject>(lhs: QuantifiedPath<T, D>, rhs: D) -> Where<T> {
    lhs.comparing("<>", rhs.key.rowID)
}
