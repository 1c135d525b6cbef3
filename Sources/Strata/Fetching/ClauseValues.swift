// Clauses are values: equal when they fetch the same thing, hashable (to key caches), and
// readable in logs and test failures.

extension From: CustomStringConvertible {
    /// `From<Person>`, `From<Person>("Cache")` or `From<Person>("Cache", "Main")`.
    public var description: String {
        "From<\(T.entityName)>" + (configurations.isEmpty ? "" : "(" + configurations.map { "\"\($0)\"" }.joined(separator: ", ") + ")")
    }
}

extension Into: CustomStringConvertible {
    /// `Into<Person>`, `Into<Person>("Cache")`, or `Into<Person>(nil, inferStoreIfPossible: false)`.
    public var description: String {
        if configuration == nil && !inferStoreIfPossible { return "Into<\(T.entityName)>(nil, inferStoreIfPossible: false)" }
        return "Into<\(T.entityName)>" + (configuration.map { "(\"\($0)\")" } ?? "")
    }
}

extension Where: CustomStringConvertible {
    /// `Where<Person>(age > 30 && name != "")`.
    public var description: String { "Where<\(T.entityName)>(\(expression.description))" }
}

extension OrderBy: CustomStringConvertible {
    /// `OrderBy<Person>(name ascending, age descending)`.
    public var description: String { "OrderBy<\(T.entityName)>(\(sortKeys.map(\.description).joined(separator: ", ")))" }
}

extension OrderBy.SortKey: CustomStringConvertible {
    /// `name ascending`.
    public var description: String { path.description + (ascending ? " ascending" : " descending") }
}

extension Tweak: CustomStringConvertible {
    /// `Tweak(limit: 10, offset: 20)`, naming only what differs from the defaults.
    public var description: String {
        var parts: [String] = []
        if let limit { parts.append("limit: \(limit)") }
        if let offset { parts.append("offset: \(offset)") }
        if !includesPendingChanges { parts.append("includesPendingChanges: false") }
        if !includesSubentities { parts.append("includesSubentities: false") }
        if returnsDistinctResults { parts.append("returnsDistinctResults: true") }
        return "Tweak(" + parts.joined(separator: ", ") + ")"
    }
}

extension FetchChainBuilder: CustomStringConvertible {
    /// `From<Person>.where(age > 30).orderBy(name ascending).tweak(limit: 5)`.
    public var description: String {
        var text = from.description
        for condition in conditions { text += ".where(\(condition.expression.description))" }
        if !sortKeys.isEmpty { text += ".orderBy(\(sortKeys.map(\.description).joined(separator: ", ")))" }
        if tweak != Tweak() { text += ".tweak(" + tweak.description.dropFirst("Tweak(".count) }
        if !prefetches.isEmpty { text += ".prefetch(\(prefetches.map(\.description).joined(separator: ", ")))" }
        return text
    }
}

extension SelectTerm: Hashable, CustomStringConvertible {
    /// Terms are equal when they compute the same value, read as the same type, under the same key.
    public static func == (lhs: SelectTerm, rhs: SelectTerm) -> Bool {
        lhs.function == rhs.function && lhs.path == rhs.path && lhs.key == rhs.key && lhs.valueType == rhs.valueType
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(function)
        hasher.combine(path)
        hasher.combine(key)
        hasher.combine(valueType)
    }

    /// The property path the term reads (`age`, `master.name`); nil for `objectID`.
    public var keyPath: String? {
        if case .name(let name)? = path { return name }
        return nil
    }

    /// `count(age) as "n"`, `age`, `objectID`.
    public var description: String {
        let argument = path?.description ?? ""
        let computed = function == .attribute ? argument : function == .objectID ? "objectID" : "\(function.keyName)(\(argument))"
        return computed == key ? computed : "\(computed) as \"\(key)\""
    }
}

extension QueryChainBuilder: Hashable, CustomStringConvertible {
    /// Queries are equal when they read the same rows into the same terms and groups.
    public static func == (lhs: QueryChainBuilder, rhs: QueryChainBuilder) -> Bool {
        lhs.fetch == rhs.fetch && lhs.terms == rhs.terms && lhs.groupBy == rhs.groupBy
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fetch)
        hasher.combine(terms)
        hasher.combine(groupBy)
    }

    /// The selected terms, in order.
    public var selectTerms: [SelectTerm<T>] { terms }

    /// The property paths rows are grouped by, in order.
    public var groupByKeyPaths: [String] { groupBy.compactMap { if case .name(let name) = $0 { name } else { nil } } }

    /// `From<Person>.where(age > 30).select(age, count(age) as "n").groupBy(age)`.
    public var description: String {
        var text = fetch.description + ".select(\(terms.map(\.description).joined(separator: ", ")))"
        if !groupBy.isEmpty { text += ".groupBy(\(groupBy.map(\.description).joined(separator: ", ")))" }
        return text
    }
}

extension PropertyPath: CustomStringConvertible {
    /// The property path, or what is wrong with the key path.
    var description: String {
        switch self {
        case .name(let name): return name
        case .invalid(let expression): return expression.description
        }
    }
}

extension WhereExpression: CustomStringConvertible {
    /// The condition as Swift-like text: `age > 30 && (name == "Ann" || nickname == nil)`.
    var description: String {
        switch self {
        case .constant(let value):
            return value ? "true" : "false"
        case .compare(let path, let op, let value, _):
            let symbol = ["=": "==", "<>": "!="][op] ?? op
            return "\(path) \(symbol) \(Self.literal(value))"
        case .isNull(let path, let negated):
            return "\(path) \(negated ? "!=" : "==") nil"
        case .contained(let path, let values, _):
            return "\(path) in [\(values.map(Self.literal).joined(separator: ", "))]"
        case .text(let path, let match, let pattern, let caseInsensitive):
            return "\(path) \(match.rawValue)\(caseInsensitive ? "[c]" : "") \(Self.literal(.text(pattern)))"
        case .and(let lhs, let rhs):
            return "\(lhs.operand(of: "&&")) && \(rhs.operand(of: "&&"))"
        case .or(let lhs, let rhs):
            return "\(lhs.operand(of: "||")) || \(rhs.operand(of: "||"))"
        case .not(let operand):
            return "!(\(operand.description))"
        case .sql(let text, let arguments):
            return "sql(\(Self.literal(.text(text)))\(arguments.map { ", " + Self.literal($0) }.joined()))"
        case .invalid(let reason):
            return "invalid(\(reason))"
        case .quantified(let path, let quantifier, let condition):
            return "\(quantifier.rawValue)(\(path), \(condition.description))"
        }
    }

    /// The text of an operand of `op`, parenthesised unless it is a comparison or the same operator.
    private func operand(of op: String) -> String {
        switch (self, op) {
        case (.and, "&&"), (.or, "||"), (.constant, _), (.compare, _), (.isNull, _), (.contained, _), (.text, _), (.not, _), (.quantified, _):
            return description
        default:
            return "(" + description + ")"
        }
    }

    /// A value as a Swift-like literal: text quoted with escapes, numbers as they are.
    private static func literal(_ value: SQLValue) -> String {
        switch value {
        case .null: return "nil"
        case .integer(let integer): return String(integer)
        case .real(let real): return String(real)
        case .text(let text):
            return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .blob(let bytes): return "<\(bytes.count) bytes>"
        }
    }
}
