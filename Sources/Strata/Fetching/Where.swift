/// A filter: which objects a fetch, query or delete applies to.
///
/// Build it from key paths (`\.age > 30 && \.name != ""`), from text matches
/// (`.contains(\.name, "an", caseInsensitive: true)`), or from raw SQL with bound arguments
/// (`Where(sql: "length(\"name\") > ?", 3)`). Key paths may cross one or two to-one
/// relationships (`\Dog.master?.name == "John"`); longer paths are chained with `~`
/// (`\Dog.master ~ \Person.employer ~ \Company.city == "Oslo"`). A to-many relationship is
/// counted (`\.pets.count > 2`) or quantified (`.any(\.pets, \.name == "Rex")`, `.all`, `.none`).
public struct Where<T: StrataObject>: Sendable, Hashable {
    typealias Expression = WhereExpression
    typealias TextMatch = WhereExpression.TextMatch

    let expression: Expression

    init(_ expression: Expression) {
        self.expression = expression
    }

    /// Every object.
    public init() {
        self.init(.constant(true))
    }

    /// Every object (`true`) or none (`false`).
    public init(_ value: Bool) {
        self.init(.constant(value))
    }

    /// The same condition, with the entity named where a key path needs it:
    /// `Where<Person>(\.age > 30)` as a separate clause of a fetch.
    public init(_ clause: Where<T>) {
        self.init(clause.expression)
    }

    /// A raw SQL condition over the entity's table; `?` placeholders take `arguments` in order.
    /// Column names are the storage keys; quote them with double quotes.
    public init(sql: String, _ arguments: any QueryableAttributeType...) {
        self.init(.sql(sql, arguments.map(\.sqlValue)))
    }

    /// A raw SQL condition with its arguments as an array.
    public init(sql: String, arguments: [any QueryableAttributeType]) {
        self.init(.sql(sql, arguments.map(\.sqlValue)))
    }

    /// The property name of a key path, or the reason it has none.
    static func path(_ keyPath: AnyKeyPath) -> PropertyPath {
        if let name = T.propertyName(for: keyPath) ?? KeyPathChains.name(of: keyPath, in: T.self) { return .name(name) }
        return .invalid(.invalid("\(type(of: keyPath)) does not name a stored property of '\(T.entityName)'; "
                                 + "a path through more than two to-one relationships is written with ~ (\\.owner ~ \\.address ~ \\.city), "
                                 + "and a to-many relationship is tested with .any, .all, .none or its count"))
    }

    static func compare<V: QueryableAttributeType>(_ keyPath: AnyKeyPath, _ op: String, _ value: V) -> Where<T> {
        compare(path(keyPath), op, value)
    }

    static func compare<V: QueryableAttributeType>(_ path: PropertyPath, _ op: String, _ value: V) -> Where<T> {
        switch path {
        case .name(let name): return Where(.compare(path: name, op: op, value: value.sqlValue, style: V.comparison))
        case .invalid(let invalid): return Where(invalid)
        }
    }

    static func null(_ keyPath: AnyKeyPath, negated: Bool) -> Where<T> {
        null(path(keyPath), negated: negated)
    }

    static func null(_ path: PropertyPath, negated: Bool) -> Where<T> {
        switch path {
        case .name(let name): return Where(.isNull(path: name, negated: negated))
        case .invalid(let invalid): return Where(invalid)
        }
    }

    static func text(_ keyPath: AnyKeyPath, _ match: TextMatch, _ pattern: String, _ caseInsensitive: Bool) -> Where<T> {
        switch path(keyPath) {
        case .name(let name): return Where(.text(path: name, match: match, pattern: pattern, caseInsensitive: caseInsensitive))
        case .invalid(let invalid): return Where(invalid)
        }
    }

    /// Text that contains `substring` (nil never matches).
    public static func contains<V: TextAttribute>(_ keyPath: KeyPath<T, V>, _ substring: String, caseInsensitive: Bool = false) -> Where<T> {
        text(keyPath, .contains, substring, caseInsensitive)
    }

    /// Text that starts with `prefix`.
    public static func beginsWith<V: TextAttribute>(_ keyPath: KeyPath<T, V>, _ prefix: String, caseInsensitive: Bool = false) -> Where<T> {
        text(keyPath, .beginsWith, prefix, caseInsensitive)
    }

    /// Text that ends with `suffix`.
    public static func endsWith<V: TextAttribute>(_ keyPath: KeyPath<T, V>, _ suffix: String, caseInsensitive: Bool = false) -> Where<T> {
        text(keyPath, .endsWith, suffix, caseInsensitive)
    }

    /// Text matching a SQL LIKE pattern: `%` any run of characters, `_` one character, `\` escapes.
    public static func like<V: TextAttribute>(_ keyPath: KeyPath<T, V>, _ pattern: String, caseInsensitive: Bool = false) -> Where<T> {
        text(keyPath, .like, pattern, caseInsensitive)
    }

    /// Both conditions.
    public static func && (lhs: Where<T>, rhs: Where<T>) -> Where<T> { Where(.and(lhs.expression, rhs.expression)) }
    /// Either condition.
    public static func || (lhs: Where<T>, rhs: Where<T>) -> Where<T> { Where(.or(lhs.expression, rhs.expression)) }
    /// The opposite condition.
    public static prefix func ! (operand: Where<T>) -> Where<T> { Where(.not(operand.expression)) }

    /// Both conditions, or the left one alone when the right one is nil.
    public static func &&? (lhs: Where<T>, rhs: Where<T>?) -> Where<T> { rhs.map { lhs && $0 } ?? lhs }
    /// Both conditions, or the right one alone when the left one is nil.
    public static func &&? (lhs: Where<T>?, rhs: Where<T>) -> Where<T> { lhs.map { $0 && rhs } ?? rhs }
    /// Either condition, or the left one alone when the right one is nil.
    public static func ||? (lhs: Where<T>, rhs: Where<T>?) -> Where<T> { rhs.map { lhs || $0 } ?? lhs }
    /// Either condition, or the right one alone when the left one is nil.
    public static func ||? (lhs: Where<T>?, rhs: Where<T>) -> Where<T> { lhs.map { $0 || rhs } ?? rhs }
}

/// `a &&? b`: `a && b`, or whichever side is not nil.
infix operator &&? : LogicalConjunctionPrecedence
/// `a ||? b`: `a || b`, or whichever side is not nil.
infix operator ||? : LogicalDisjunctionPrecedence

// MARK: - Key-path comparisons

/// `\.age == 30`
public func == <T: StrataObject, V: QueryableAttributeType>(lhs: KeyPath<T, V>, rhs: V) -> Where<T> { .compare(lhs, "=", rhs) }
/// `\.age != 30`
public func != <T: StrataObject, V: QueryableAttributeType>(lhs: KeyPath<T, V>, rhs: V) -> Where<T> { .compare(lhs, "<>", rhs) }
/// `\.age < 30`
public func < <T: StrataObject, V: QueryableAttributeType>(lhs: KeyPath<T, V>, rhs: V) -> Where<T> { .compare(lhs, "<", rhs) }
/// `\.age <= 30`
public func <= <T: StrataObject, V: QueryableAttributeType>(lhs: KeyPath<T, V>, rhs: V) -> Where<T> { .compare(lhs, "<=", rhs) }
/// `\.age > 30`
public func > <T: StrataObject, V: QueryableAttributeType>(lhs: KeyPath<T, V>, rhs: V) -> Where<T> { .compare(lhs, ">", rhs) }
/// `\.age >= 30`
public func >= <T: StrataObject, V: QueryableAttributeType>(lhs: KeyPath<T, V>, rhs: V) -> Where<T> { .compare(lhs, ">=", rhs) }

/// `\.nickname == "Rex"`, or `\.nickname == nil`.
public func == <T: StrataObject, V: QueryableAttributeType>(lhs: KeyPath<T, V?>, rhs: V?) -> Where<T> {
    guard let rhs else { return .null(lhs, negated: false) }
    return .compare(lhs, "=", rhs)
}

/// `\.nickname != "Rex"` (nil values do not match), or `\.nickname != nil`.
public func != <T: StrataObject, V: QueryableAttributeType>(lhs: KeyPath<T, V?>, rhs: V?) -> Where<T> {
    guard let rhs else { return .null(lhs, negated: true) }
    return .compare(lhs, "<>", rhs)
}

/// `\.weight < 3.5` on an optional attribute (nil values do not match).
public func < <T: StrataObject, V: QueryableAttributeType>(lhs: KeyPath<T, V?>, rhs: V) -> Where<T> { .compare(lhs, "<", rhs) }
/// `\.weight <= 3.5` on an optional attribute.
public func <= <T: StrataObject, V: QueryableAttributeType>(lhs: KeyPath<T, V?>, rhs: V) -> Where<T> { .compare(lhs, "<=", rhs) }
/// `\.weight > 3.5` on an optional attribute.
public func > <T: StrataObject, V: QueryableAttributeType>(lhs: KeyPath<T, V?>, rhs: V) -> Where<T> { .compare(lhs, ">", rhs) }
/// `\.weight >= 3.5` on an optional attribute.
public func >= <T: StrataObject, V: QueryableAttributeType>(lhs: KeyPath<T, V?>, rhs: V) -> Where<T> { .compare(lhs, ">=", rhs) }

/// `\.age ~= [20, 30]`: the value is one of the list.
public func ~= <T: StrataObject, V: QueryableAttributeType, S: Sequence>(lhs: KeyPath<T, V>, rhs: S) -> Where<T> where S.Element == V {
    .contained(Where<T>.path(lhs), rhs)
}

/// `\.nickname ~= ["Rex", "Fido"]` on an optional attribute (nil values do not match).
public func ~= <T: StrataObject, V: QueryableAttributeType, S: Sequence>(lhs: KeyPath<T, V?>, rhs: S) -> Where<T> where S.Element == V {
    .contained(Where<T>.path(lhs), rhs)
}

extension Where {
    static func contained<V: QueryableAttributeType, S: Sequence>(_ path: PropertyPath, _ values: S) -> Where<T> where S.Element == V {
        switch path {
        case .name(let name): return Where(.contained(path: name, values: values.map(\.sqlValue), style: V.comparison))
        case .invalid(let invalid): return Where(invalid)
        }
    }
}

/// The condition tree of a `Where`, independent of its entity type.
indirect enum WhereExpression: Sendable, Hashable {
    enum TextMatch: String, Sendable, Hashable {
        case contains, beginsWith, endsWith, like
    }

    case constant(Bool)
    case compare(path: String, op: String, value: SQLValue, style: SQLComparisonStyle)
    case isNull(path: String, negated: Bool)
    case contained(path: String, values: [SQLValue], style: SQLComparisonStyle)
    case text(path: String, match: TextMatch, pattern: String, caseInsensitive: Bool)
    case and(WhereExpression, WhereExpression)
    case or(WhereExpression, WhereExpression)
    case not(WhereExpression)
    case sql(String, [SQLValue])
    case invalid(String)
    /// Whether any, all or none of the objects of a to-many relationship (at `path`, which may
    /// cross to-one relationships first) satisfy a condition on the destination entity.
    case quantified(path: String, quantifier: Quantifier, condition: WhereExpression)

    /// How many of a to-many relationship's objects must satisfy a condition.
    enum Quantifier: String, Sendable, Hashable {
        case any, all, none
    }
}

/// A key path resolved to a property path (`name`, `master.name`), or the expression that fails
/// the fetch explaining why it could not be.
enum PropertyPath: Sendable, Hashable {
    case name(String)
    case invalid(WhereExpression)
}

/// Attribute types text matches apply to: `String` and `String?`.
public protocol TextAttribute {}

extension String: TextAttribute {}
extension Optional: TextAttribute where Wrapped == String {}
