/// One column of a query: an attribute or an aggregate of one, under a key.
public struct SelectTerm<T: StrataObject>: Sendable {
    enum Function: String, Sendable, Hashable {
        case attribute, average, count, maximum, minimum, sum, objectID

        /// The name in a term's default key, as CoreStore writes it: `max(age)`, `count(age)`.
        var keyName: String {
            switch self {
            case .maximum: return "max"
            case .minimum: return "min"
            default: return rawValue
            }
        }

        /// Whether the function aggregates the rows it is given into one value.
        var aggregates: Bool {
            switch self {
            case .average, .count, .maximum, .minimum, .sum: return true
            case .attribute, .objectID: return false
            }
        }

        /// The SQL aggregate function.
        var sqlName: String {
            switch self {
            case .average: return "avg"
            case .maximum: return "max"
            case .minimum: return "min"
            default: return rawValue
            }
        }
    }

    let function: Function

    /// Whether the term aggregates the fetched objects into one value (`.average(\.age)`), not
    /// each object's related objects (`.count(\.friends)`).
    var aggregatesTheFetch: Bool { member == nil && function.aggregates }
    /// The attribute selected or aggregated; for a per-object term, the to-many relationship.
    let path: PropertyPath?
    /// For a per-object aggregate of a to-many relationship's objects (`count(friends)`,
    /// `average(pets.age)`), the property of those objects aggregated (their own id when the
    /// term counts them); nil for a term over the fetched objects themselves.
    let member: PropertyPath?
    /// The key of the value in `queryAttributes` rows.
    public let key: String
    let decode: @Sendable (SQLValue, QueryScope) -> (any QueryableAttributeType)?
    /// The type the value is read as, for equality.
    let valueType: ObjectIdentifier
    /// What the value is, for `queryValue`'s conversions (see ``QueryConversion``).
    let kind: QueryConversion.Kind

    private init<V: QueryableAttributeType>(_ function: Function, _ keyPath: AnyKeyPath?, alias: String?, as type: V.Type,
                                            attribute: Any.Type) {
        self.init(function, keyPath.map { Where<T>.path($0) }, member: nil, alias: alias, as: type, attribute: attribute)
    }

    /// A term over `path`, or with a `member`, over the objects of the to-many relationship
    /// `path` names; keyed by `alias`, or as CoreStore keys it: `age`, `max(age)`, `count(friends)`,
    /// `average(pets.age)`.
    init<V: QueryableAttributeType>(_ function: Function, _ path: PropertyPath?, member: PropertyPath?, alias: String?, as type: V.Type,
                                    attribute: Any.Type) {
        self.kind = QueryConversion.kind(of: function.rawValue, attribute: QueryConversion.Kind(attribute))
        self.function = function
        self.path = path
        self.member = member
        var name = "objectID"
        if case .name(let property)? = path { name = property }
        if case .name(let property)? = member, property != PropertyPath.identity { name += "." + property }
        self.key = alias ?? (function == .attribute || function == .objectID ? name : "\(function.keyName)(\(name))")
        self.decode = { value, _ in value.isNull ? nil : V(sqlValue: value) }
        self.valueType = ObjectIdentifier(V.self)
    }

    /// An attribute's value.
    public static func attribute<V: QueryableAttributeType>(_ keyPath: KeyPath<T, V>, as alias: String? = nil) -> SelectTerm<T> {
        SelectTerm(.attribute, keyPath, alias: alias, as: V.self, attribute: V.self)
    }

    /// An optional attribute's value (absent from the row when nil).
    public static func attribute<V: QueryableAttributeType>(_ keyPath: KeyPath<T, V?>, as alias: String? = nil) -> SelectTerm<T> {
        SelectTerm(.attribute, keyPath, alias: alias, as: V.self, attribute: V.self)
    }

    /// The average of an attribute, as a `Double`.
    public static func average<V: QueryableAttributeType>(_ keyPath: KeyPath<T, V>, as alias: String? = nil) -> SelectTerm<T> {
        SelectTerm(.average, keyPath, alias: alias, as: Double.self, attribute: V.self)
    }

    /// The average of an optional attribute, nil values left out (as SQL does).
    public static func average<V: QueryableAttributeType>(_ keyPath: KeyPath<T, V?>, as alias: String? = nil) -> SelectTerm<T> {
        SelectTerm(.average, keyPath, alias: alias, as: Double.self, attribute: V.self)
    }

    /// The largest value of an optional attribute, nil values left out.
    public static func maximum<V: QueryableAttributeType>(_ keyPath: KeyPath<T, V?>, as alias: String? = nil) -> SelectTerm<T> {
        SelectTerm(.maximum, keyPath, alias: alias, as: V.self, attribute: V.self)
    }

    /// The smallest value of an optional attribute, nil values left out.
    public static func minimum<V: QueryableAttributeType>(_ keyPath: KeyPath<T, V?>, as alias: String? = nil) -> SelectTerm<T> {
        SelectTerm(.minimum, keyPath, alias: alias, as: V.self, attribute: V.self)
    }

    /// The sum of an optional attribute, nil values left out.
    public static func sum<V: QueryableAttributeType>(_ keyPath: KeyPath<T, V?>, as alias: String? = nil) -> SelectTerm<T> {
        sumTerm(keyPath, alias: alias, V.self)
    }

    /// How many objects have a value for an attribute (`count(name)`); to count each object's
    /// objects in a to-many relationship, pass the relationship (`.count(\.friends)`).
    public static func count<V: QueryableAttributeType>(_ keyPath: KeyPath<T, V>, as alias: String? = nil) -> SelectTerm<T> {
        SelectTerm(.count, keyPath, alias: alias, as: Int.self, attribute: V.self)
    }

    /// How many objects have a value for an optional attribute (NULLs are not counted).
    public static func count<V: QueryableAttributeType>(_ keyPath: KeyPath<T, V?>, as alias: String? = nil) -> SelectTerm<T> {
        SelectTerm(.count, keyPath, alias: alias, as: Int.self, attribute: V.self)
    }

    /// How many objects have a to-one relationship set.
    public static func count<D: StrataObject>(_ keyPath: KeyPath<T, D?>, as alias: String? = nil) -> SelectTerm<T> {
        SelectTerm(.count, keyPath, alias: alias, as: Int.self, attribute: D.self)
    }

    /// The largest value of an attribute.
    public static func maximum<V: QueryableAttributeType>(_ keyPath: KeyPath<T, V>, as alias: String? = nil) -> SelectTerm<T> {
        SelectTerm(.maximum, keyPath, alias: alias, as: V.self, attribute: V.self)
    }

    /// The smallest value of an attribute.
    public static func minimum<V: QueryableAttributeType>(_ keyPath: KeyPath<T, V>, as alias: String? = nil) -> SelectTerm<T> {
        SelectTerm(.minimum, keyPath, alias: alias, as: V.self, attribute: V.self)
    }

    /// The sum of an attribute.
    public static func sum<V: QueryableAttributeType>(_ keyPath: KeyPath<T, V>, as alias: String? = nil) -> SelectTerm<T> {
        sumTerm(keyPath, alias: alias, V.self)
    }

    /// A sum; that of a `Bool` attribute counts its true values, an `Int`, as CoreStore's does.
    private static func sumTerm<V: QueryableAttributeType>(_ keyPath: AnyKeyPath, alias: String?, _ type: V.Type) -> SelectTerm<T> {
        V.self == Bool.self ? SelectTerm(.sum, keyPath, alias: alias, as: Int.self, attribute: Int.self)
            : SelectTerm(.sum, keyPath, alias: alias, as: V.self, attribute: V.self)
    }

    /// The object's ID.
    public static func objectID(as alias: String? = nil) -> SelectTerm<T> {
        var term = SelectTerm(.objectID, nil, alias: alias, as: Int64.self, attribute: Int64.self)
        term = SelectTerm(copying: term) { value, scope in
            Int64(sqlValue: value).map { ObjectID<T>(key: ObjectKey(storage: scope.storage, table: scope.table, rowID: $0), entityName: scope.entityName) }
        }
        return term
    }

    private init(copying term: SelectTerm<T>, decode: @escaping @Sendable (SQLValue, QueryScope) -> (any QueryableAttributeType)?) {
        function = term.function
        path = term.path
        member = term.member
        key = term.key
        kind = term.kind
        valueType = ObjectIdentifier(ObjectID<T>.self)
        self.decode = decode
    }
}

/// Where a query ran, for turning row ids back into object IDs.
struct QueryScope: Sendable {
    let storage: Int32
    let table: Int32
    let entityName: String
}

/// The rows `queryAttributes` returns: each selected key with its typed value (`Int16` for an
/// `Int16` attribute, `Int` for counts, `Double` for averages); nil values are left out.
public typealias QueryAttributes = [String: any QueryableAttributeType]

extension ObjectID: QueryableAttributeType {
    /// The row id.
    public var sqlValue: SQLValue { .integer(key.rowID) }

    /// IDs cannot be rebuilt from a row id alone; queries build them with their storage.
    public init?(sqlValue: SQLValue) { nil }
}
