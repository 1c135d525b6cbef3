/// Per-object aggregates of a to-many relationship, as CoreStore's `Select("name", .count("friends"))`
/// asks for them: beside each object's own attributes, a value computed over that object's related
/// objects, in one query.
///
/// ```swift
/// let rows = try stack.queryAttributes(From<Person>().select(.attribute(\.name), .count(\.friends)))
/// // [["name": "Ann", "count(friends)": 2], ["name": "Bob", "count(friends)": 0]]
/// let ages = try stack.queryAttributes(From<Person>().select(.attribute(\.name), .average(\Person.pets ~ \Dog.age, as: "petAge")))
/// ```
///
/// Each becomes a correlated subquery. A count or a sum of no objects is 0; an average, maximum or
/// minimum of no objects is nil, so the row leaves its key out. A per-object term cannot be grouped
/// (`groupBy`) nor mixed with an aggregate over the whole fetch (`.count(\.age)`): either is an
/// `invalidQuery` error that names the terms.
extension SelectTerm {
    /// How many objects each object's to-many relationship holds, keyed `count(friends)`.
    public static func count<C: Sequence>(_ relationship: KeyPath<T, C>, as alias: String? = nil) -> SelectTerm<T>
        where C.Element: StrataObject {
        perObject(.count, Where<T>.path(relationship), member: nil, alias: alias, as: Int.self, attribute: Int.self)
    }

    /// How many objects the to-many relationship a path ends in holds, per object:
    /// `.count(\Dog.master ~ \Person.pets)`, keyed `count(master.pets)`.
    public static func count<C: Sequence>(_ relationship: RelationshipPath<T, C>, as alias: String? = nil) -> SelectTerm<T>
        where C.Element: StrataObject {
        perObject(.count, relationship.path, member: nil, alias: alias, as: Int.self, attribute: Int.self)
    }

    /// How many of each object's related objects have a value for a property:
    /// `.count(\Person.pets ~ \Dog.nickname)`, keyed `count(pets.nickname)`.
    public static func count<E, V>(_ path: ToManyMemberPath<T, E, V>, as alias: String? = nil) -> SelectTerm<T> {
        perObject(.count, path, alias: alias, as: Int.self, attribute: Int.self)
    }

    /// The average of a property over each object's related objects, as a `Double`:
    /// `.average(\Person.pets ~ \Dog.age)`, keyed `average(pets.age)`.
    public static func average<E, V: QueryableAttributeType>(_ path: ToManyMemberPath<T, E, V>, as alias: String? = nil) -> SelectTerm<T> {
        perObject(.average, path, alias: alias, as: Double.self, attribute: V.self)
    }

    /// The average of an optional property over each object's related objects, nil values left out.
    public static func average<E, V: QueryableAttributeType>(_ path: ToManyMemberPath<T, E, V?>, as alias: String? = nil) -> SelectTerm<T> {
        perObject(.average, path, alias: alias, as: Double.self, attribute: V.self)
    }

    /// The largest value of a property among each object's related objects, keyed `max(pets.age)`.
    public static func maximum<E, V: QueryableAttributeType>(_ path: ToManyMemberPath<T, E, V>, as alias: String? = nil) -> SelectTerm<T> {
        perObject(.maximum, path, alias: alias, as: V.self, attribute: V.self)
    }

    /// The largest value of an optional property among each object's related objects.
    public static func maximum<E, V: QueryableAttributeType>(_ path: ToManyMemberPath<T, E, V?>, as alias: String? = nil) -> SelectTerm<T> {
        perObject(.maximum, path, alias: alias, as: V.self, attribute: V.self)
    }

    /// The smallest value of a property among each object's related objects, keyed `min(pets.age)`.
    public static func minimum<E, V: QueryableAttributeType>(_ path: ToManyMemberPath<T, E, V>, as alias: String? = nil) -> SelectTerm<T> {
        perObject(.minimum, path, alias: alias, as: V.self, attribute: V.self)
    }

    /// The smallest value of an optional property among each object's related objects.
    public static func minimum<E, V: QueryableAttributeType>(_ path: ToManyMemberPath<T, E, V?>, as alias: String? = nil) -> SelectTerm<T> {
        perObject(.minimum, path, alias: alias, as: V.self, attribute: V.self)
    }

    /// The sum of a property over each object's related objects (0 for none; a `Bool`'s sum counts
    /// its true values, as an `Int`), keyed `sum(pets.age)`.
    public static func sum<E, V: QueryableAttributeType>(_ path: ToManyMemberPath<T, E, V>, as alias: String? = nil) -> SelectTerm<T> {
        perObjectSum(path, alias: alias, V.self)
    }

    /// The sum of an optional property over each object's related objects, nil values left out.
    public static func sum<E, V: QueryableAttributeType>(_ path: ToManyMemberPath<T, E, V?>, as alias: String? = nil) -> SelectTerm<T> {
        perObjectSum(path, alias: alias, V.self)
    }

    private static func perObjectSum<E, P, V: QueryableAttributeType>(_ path: ToManyMemberPath<T, E, P>, alias: String?, _ type: V.Type) -> SelectTerm<T> {
        V.self == Bool.self ? perObject(.sum, path, alias: alias, as: Int.self, attribute: Int.self)
            : perObject(.sum, path, alias: alias, as: V.self, attribute: V.self)
    }

    private static func perObject<E, P, V: QueryableAttributeType>(_ function: Function, _ path: ToManyMemberPath<T, E, P>, alias: String?,
                                                                  as type: V.Type, attribute: Any.Type) -> SelectTerm<T> {
        perObject(function, path.relationship, member: path.member, alias: alias, as: type, attribute: attribute)
    }

    /// A term over the objects of the to-many relationship `relationship` names: over their
    /// `member` property, or over the objects themselves when `member` is nil.
    private static func perObject<V: QueryableAttributeType>(_ function: Function, _ relationship: PropertyPath, member: PropertyPath?,
                                                             alias: String?, as type: V.Type, attribute: Any.Type) -> SelectTerm<T> {
        SelectTerm(function, relationship, member: member ?? .name(PropertyPath.identity), alias: alias, as: type, attribute: attribute)
    }
}

extension ObjectContext {
    /// Refuses a query that mixes per-object terms with grouping or with aggregates over the
    /// whole fetch: SQL would give either no single meaning.
    func checkPerObjectTerms<T: StrataObject>(_ terms: [SelectTerm<T>], grouped: Bool) throws(StrataError) {
        guard let perObject = terms.first(where: { $0.member != nil }) else { return }
        if grouped {
            throw .invalidQuery("'\(perObject.key)' is computed for each object, so the query cannot be grouped; "
                                + "group a query of the related entity by its relationship instead")
        }
        if let whole = terms.first(where: \.aggregatesTheFetch) {
            throw .invalidQuery("'\(perObject.key)' is computed for each object and '\(whole.key)' over all of them; "
                                + "select them in separate queries")
        }
    }

    /// The SQL of a per-object term: a correlated subquery over the relationship's objects.
    func compilePerObject<T: StrataObject>(_ term: SelectTerm<T>, member: PropertyPath,
                                           compiler: inout ExpressionCompiler) throws(StrataError) -> String {
        switch (term.path, member) {
        case (.name(let relationship)?, .name(let property)):
            return try compiler.relationshipAggregate(term.function.sqlName, of: relationship,
                                                      member: property == PropertyPath.identity ? nil : property)
        case (.invalid(let expression)?, _), (_, .invalid(let expression)):
            _ = try compiler.compile(expression)
            throw .invalidQuery("'\(term.key)' selects no attribute")
        case (nil, _):
            throw .invalidQuery("'\(term.key)' selects no attribute")
        }
    }
}
