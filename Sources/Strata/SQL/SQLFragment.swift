/// A piece of SQL and the values bound to its `?` placeholders, in order.
///
/// All SQL the runtime runs is assembled from these values: identifiers are always quoted,
/// values are always bound, and raw text only ever comes from Strata's own keywords (or, through
/// `Where(sql:_:)`, from the app, with its own bound arguments).
struct SQLFragment: Sendable, Hashable {
    var text: String
    var arguments: [SQLValue]

    init(_ text: String, _ arguments: [SQLValue] = []) {
        self.text = text
        self.arguments = arguments
    }

    /// A quoted identifier: `"name"`, with embedded quotes doubled.
    static func identifier(_ name: String) -> SQLFragment {
        SQLFragment(quote(name))
    }

    /// `"table"."column"`.
    static func column(_ name: String, of table: String) -> SQLFragment {
        SQLFragment(quote(table) + "." + quote(name))
    }

    /// A bound value.
    static func value(_ value: SQLValue) -> SQLFragment {
        SQLFragment("?", [value])
    }

    /// The quoted form of an identifier.
    static func quote(_ name: String) -> String {
        SQLIdentifier.quote(name)
    }

    static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(lhs.text + rhs.text, lhs.arguments + rhs.arguments)
    }

    static func + (lhs: SQLFragment, rhs: String) -> SQLFragment {
        SQLFragment(lhs.text + rhs, lhs.arguments)
    }

    static func + (lhs: String, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(lhs + rhs.text, rhs.arguments)
    }

    /// `(fragment)`.
    var parenthesized: SQLFragment { "(" + self + ")" }
}

extension Sequence where Element == SQLFragment {
    /// The fragments joined by `separator`, arguments kept in order.
    func joined(separator: String) -> SQLFragment {
        var result = SQLFragment("")
        var first = true
        for fragment in self {
            if !first { result.text += separator }
            first = false
            result.text += fragment.text
            result.arguments += fragment.arguments
        }
        return result
    }
}
