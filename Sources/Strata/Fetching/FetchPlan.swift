/// A fetch turned into SQL for one entity: the statement, and for each entity that can come
/// back, where its columns are in the result row.
struct FetchPlan {
    /// An entity rows can belong to, and where its columns are in the row.
    struct Kind {
        let layout: EntityLayout
        let map: [Int32]
        let table: Int32
    }

    let entity: EntityLayout
    let sql: SQLFragment
    /// The kinds of rows, indexed by entity code (index 0 for tables that hold one entity).
    private let kindsByCode: [Kind?]
    let hasEntityColumn: Bool

    /// Every kind of row the fetch can return.
    var kinds: [Kind] { kindsByCode.compactMap { $0 } }

    /// The kind of a result row, by its entity code.
    @inline(__always)
    func kind(of row: DatabaseRow) -> Kind? {
        let code = hasEntityColumn ? Int(row.int64(1)) : 0
        return code >= 0 && code < kindsByCode.count ? kindsByCode[code] : nil
    }

    /// The SELECT list for fetching objects of `entity` (and its subentities).
    /// Where the first of `extraColumns` lands in each result row.
    let extraColumnIndex: Int32

    init(entity: EntityLayout, core: StackCore, where conditions: [SQLFragment], orderBy: [SQLFragment], tweak: Tweak,
         joins: [SQLFragment], extraColumns: [String] = []) {
        self.entity = entity
        let table = core.layout.tables[entity.tableIndex]
        hasEntityColumn = table.hasEntityColumn
        var selected: [String] = [StoreLayout.idColumn]
        if table.hasEntityColumn { selected.append(StoreLayout.entityColumn) }
        var kinds: [Kind?] = Array(repeating: nil, count: table.entities.count + 1)
        let scope = FetchPlan.scope(of: entity, tweak)
        for name in scope {
            guard let member = core.layout.entity(name) else { continue }
            var map: [Int32] = []
            for column in member.columns {
                if let index = selected.firstIndex(of: column.name) {
                    map.append(Int32(index))
                } else {
                    selected.append(column.name)
                    map.append(Int32(selected.count - 1))
                }
            }
            kinds[Int(member.entityCode ?? 0)] = Kind(layout: member, map: map, table: Int32(member.tableIndex))
        }
        kindsByCode = kinds
        extraColumnIndex = Int32(selected.count)
        let columns = selected.map { "t." + SQLFragment.quote($0) } + extraColumns
        var sql = SQLFragment("SELECT " + columns.joined(separator: ", ") + " FROM " + SQLFragment.quote(table.name) + " AS t")
        for join in joins { sql = sql + " " + join }
        let filters = FetchPlan.entityFilter(entity, scope: scope, core: core).map { [$0] + conditions } ?? conditions
        if !filters.isEmpty { sql = sql + " WHERE " + filters.map(\.parenthesized).joined(separator: " AND ") }
        if !orderBy.isEmpty { sql = sql + " ORDER BY " + orderBy.joined(separator: ", ") }
        sql = sql + FetchPlan.limitClause(tweak)
        self.sql = sql
    }

    /// The entities whose objects a fetch of `entity` returns: it and its subentities, or it
    /// alone when the tweak leaves subentities out.
    static func scope(of entity: EntityLayout, _ tweak: Tweak) -> [String] {
        tweak.includesSubentities ? entity.subtree : [entity.name]
    }

    /// The condition that keeps a shared table's rows to the entities of `scope` (by default
    /// `entity` and its subentities), or nil when every row of the table qualifies.
    static func entityFilter(_ entity: EntityLayout, scope: [String]? = nil, core: StackCore, alias: String = "t") -> SQLFragment? {
        let table = core.layout.tables[entity.tableIndex]
        let scope = scope ?? entity.subtree
        guard table.hasEntityColumn, scope.count < table.entities.count else { return nil }
        let codes = scope.compactMap { core.layout.entity($0)?.entityCode }.map(String.init).joined(separator: ", ")
        return SQLFragment(alias + "." + SQLFragment.quote(StoreLayout.entityColumn) + " IN (" + codes + ")")
    }

    /// `LIMIT ? OFFSET ?`, bound; no limit is the largest (SQLite's -1 is an error on PostgreSQL).
    static func limitClause(_ tweak: Tweak) -> SQLFragment {
        guard tweak.limit != nil || tweak.offset != nil else { return SQLFragment("") }
        return " LIMIT " + SQLFragment.value(.integer(tweak.limit.map(Int64.init) ?? Int64.max))
            + " OFFSET " + SQLFragment.value(.integer(Int64(tweak.offset ?? 0)))
    }
}

/// Turns property paths and `Where` expressions into SQL over the alias `t` of an entity's table,
/// adding a LEFT JOIN for each to-one relationship a path crosses (once per path, however often it
/// is used), and a correlated subquery for each to-many relationship a condition counts or
/// quantifies over.
struct ExpressionCompiler {
    let core: StackCore
    let entity: EntityLayout
    /// The alias of the entity's table: `t`, or a subquery's own.
    let base: String
    /// The SQL of the storages that hold the entity.
    let dialect: SQLDialect
    private(set) var joins: [SQLFragment] = []
    /// The columns of the entity's own table that the compiled SQL reads.
    private(set) var baseColumns: Set<String> = []
    /// The tables joined through to-one relationships or read by subqueries.
    private(set) var joinedTables: Set<Int32> = []
    /// Whether a raw SQL condition was compiled (it may read anything).
    private(set) var usesRawSQL = false
    private var joinAliases: [String: (alias: String, layout: EntityLayout)] = [:]
    /// How many subqueries this compiler has made, so each gets its own alias.
    private var subqueries = 0

    init(core: StackCore, entity: EntityLayout, base: String = "t") {
        self.core = core
        self.entity = entity
        self.base = base
        self.dialect = core.dialect(of: entity.name)
    }

    /// The column expression of a property path, and its attribute. A path ending in `@count`
    /// after a to-many relationship is the number of its objects.
    mutating func column(for path: String) throws(StrataError) -> (sql: String, attribute: AttributeDescription?) {
        if path == PropertyPath.identity { return (base + "." + SQLFragment.quote(StoreLayout.idColumn), nil) }
        var parts = path.split(separator: ".").map(String.init)
        if parts.last == "@count" {
            parts.removeLast()
            return (try relationshipAggregate("count", of: parts.joined(separator: "."), member: nil), nil)
        }
        let (alias, layout) = try follow(parts.dropLast(), in: path)
        guard let last = parts.last, let column = layout.column(forProperty: last) else {
            throw .invalidQuery("'\(layout.name)' has no stored property '\(parts.last ?? "")'")
        }
        if parts.count == 1 { baseColumns.insert(column.name) }
        return (alias + "." + SQLFragment.quote(column.name), column.attribute)
    }

    /// The alias and layout a run of to-one relationships leads to, joining each once.
    private mutating func follow(_ hops: ArraySlice<String>, in path: String) throws(StrataError) -> (alias: String, layout: EntityLayout) {
        var layout = entity
        var alias = base
        for (index, part) in zip(hops.indices, hops) {
            guard let column = layout.column(forProperty: part) else {
                throw .invalidQuery("'\(layout.name)' has no stored property '\(part)'")
            }
            if index == hops.startIndex { baseColumns.insert(column.name) }
            guard let relationship = column.relationship, let destination = core.layout.entity(relationship.destination) else {
                throw .invalidQuery("'\(layout.name).\(part)' is not a to-one relationship, so '\(path)' cannot go through it")
            }
            let joinKey = hops[...index].joined(separator: ".")
            if let existing = joinAliases[joinKey] {
                alias = existing.alias
            } else {
                let next = base + "j\(joinAliases.count + 1)"
                joins.append(SQLFragment("LEFT JOIN " + SQLFragment.quote(destination.table) + " AS " + next + " ON " + next + "."
                                         + SQLFragment.quote(StoreLayout.idColumn) + " = " + alias + "." + SQLFragment.quote(column.name)))
                joinAliases[joinKey] = (next, destination)
                joinedTables.insert(Int32(destination.tableIndex))
                alias = next
            }
            layout = destination
        }
        return (alias, layout)
    }

    /// The to-many relationship a path ends in, with the alias and layout of its owner.
    private mutating func toMany(_ parts: [String], in path: String) throws(StrataError) -> (String, EntityLayout, RelationshipLayout) {
        guard let name = parts.last else { throw .invalidQuery("empty property path") }
        let (alias, layout) = try follow(parts.dropLast(), in: path)
        guard let relationship = core.layout.relationships[layout.name]?.first(where: { $0.description.name == name }) else {
            throw .invalidQuery("'\(layout.name)' has no relationship '\(name)'")
        }
        if case .foreignKey = relationship.storage {
            throw .invalidQuery("'\(layout.name).\(name)' is a to-one relationship; count and quantify to-many relationships only")
        }
        return (alias, layout, relationship)
    }

    /// A per-object aggregate over the objects of the to-many relationship `path` ends in, as a
    /// correlated subquery: `(SELECT count(*) FROM …)` without a member, else `function` of the
    /// member property of those objects. A sum of no objects is 0, as Core Data's `@sum` is; the
    /// other aggregates of no objects are NULL.
    mutating func relationshipAggregate(_ function: String, of path: String, member: String?) throws(StrataError) -> String {
        let (alias, layout, relationship) = try toMany(path.split(separator: ".").map(String.init), in: path)
        let subquery = try self.subquery(relationship, of: layout, alias: alias, condition: nil, member: member)
        guard let column = subquery.member else { return "(SELECT count(*) " + subquery.from.text + ")" }
        let aggregate = function == "count" ? "count(" + column.sql + ")" : dialect.aggregate(function, column.sql, of: column.attribute?.type)
        // Without a condition the subquery binds nothing, so its text is the whole of it.
        return "(SELECT " + (function == "sum" ? "COALESCE(" + aggregate + ", 0)" : aggregate) + " " + subquery.from.text + ")"
    }

    /// `FROM … WHERE …` of a correlated subquery over a to-many relationship's objects, with
    /// `condition` (over the destination) compiled inside it, and the column of `member` (a
    /// property path from the destination) when one is asked for.
    private mutating func subquery(_ relationship: RelationshipLayout, of owner: EntityLayout, alias ownerAlias: String,
                                   condition: WhereExpression?, member: String? = nil) throws(StrataError)
        -> (from: SQLFragment, condition: SQLFragment?, member: (sql: String, attribute: AttributeDescription?)?) {
        guard let destination = core.layout.entity(relationship.destination) else {
            throw .invalidQuery("'\(owner.name).\(relationship.description.name)' leads to an entity this model does not have")
        }
        subqueries += 1
        let alias = base + "s\(subqueries)"
        var inner = ExpressionCompiler(core: core, entity: destination, base: alias)
        let compiled = try condition.map { condition throws(StrataError) in try inner.compile(condition) }
        let memberColumn = try member.map { member throws(StrataError) in try inner.column(for: member) }
        joinedTables.formUnion(inner.joinedTables)
        joinedTables.insert(Int32(destination.tableIndex))
        usesRawSQL = usesRawSQL || inner.usesRawSQL
        var from = "FROM " + SQLFragment.quote(destination.table) + " AS " + alias
        var filters: [SQLFragment] = []
        let ownerID = ownerAlias + "." + SQLFragment.quote(StoreLayout.idColumn)
        switch relationship.storage {
        case .inverseForeignKey(let column, _):
            filters.append(SQLFragment(alias + "." + SQLFragment.quote(column) + " = " + ownerID))
        case .linkTable(let name):
            from += " JOIN " + SQLFragment.quote(name) + " AS " + alias + "l ON " + alias + "l.target = " + alias + "."
                + SQLFragment.quote(StoreLayout.idColumn)
            filters.append(SQLFragment(alias + "l.owner = " + ownerID))
        case .foreignKey:
            throw .invalidQuery("'\(owner.name).\(relationship.description.name)' is a to-one relationship")
        }
        if let filter = FetchPlan.entityFilter(destination, core: core, alias: alias) { filters.append(filter) }
        var sql = SQLFragment(from)
        for join in inner.joins { sql = sql + " " + join }
        sql = sql + " WHERE " + filters.map(\.parenthesized).joined(separator: " AND ")
        return (sql, compiled, memberColumn)
    }

    /// The SQL of a condition.
    mutating func compile(_ expression: WhereExpression) throws(StrataError) -> SQLFragment {
        switch expression {
        case .constant(let value):
            return SQLFragment(value ? "(1 = 1)" : "(1 = 0)")
        case .invalid(let reason):
            throw .invalidQuery(reason)
        case .sql(let text, let arguments):
            usesRawSQL = true
            return SQLFragment(text, arguments)
        case .and(let lhs, let rhs):
            return try compile(lhs).parenthesized + " AND " + compile(rhs).parenthesized
        case .or(let lhs, let rhs):
            return try compile(lhs).parenthesized + " OR " + compile(rhs).parenthesized
        case .not(let operand):
            return "NOT " + (try compile(operand)).parenthesized
        case .isNull(let path, let negated):
            return SQLFragment(try column(for: path).sql + (negated ? " IS NOT NULL" : " IS NULL"))
        case .compare(let path, let op, let value, let style):
            let column = try column(for: path).sql
            if style == .numericText {
                return SQLFragment("CAST(" + column + " AS REAL) " + op + " CAST(? AS REAL)", [value])
            }
            return SQLFragment(column + " " + op + " ?", [value])
        case .contained(let path, let values, let style):
            let column = try column(for: path).sql
            guard !values.isEmpty else { return SQLFragment("(1 = 0)") }
            let placeholders = Array(repeating: style == .numericText ? "CAST(? AS REAL)" : "?", count: values.count).joined(separator: ", ")
            let lhs = style == .numericText ? "CAST(" + column + " AS REAL)" : column
            return SQLFragment(lhs + " IN (" + placeholders + ")", values)
        case .text(let path, let match, let pattern, let caseInsensitive):
            return TextMatchSQL.condition(column: try column(for: path).sql, match: match, pattern: pattern, caseInsensitive: caseInsensitive,
                                          dialect: dialect)
        case .quantified(let path, let quantifier, let condition):
            let (alias, layout, relationship) = try toMany(path.split(separator: ".").map(String.init), in: path)
            let subquery = try self.subquery(relationship, of: layout, alias: alias, condition: condition)
            let inner = subquery.condition ?? SQLFragment("(1 = 1)")
            switch quantifier {
            case .any: return "EXISTS (SELECT 1 " + subquery.from + " AND " + inner.parenthesized + ")"
            case .none: return "NOT EXISTS (SELECT 1 " + subquery.from + " AND " + inner.parenthesized + ")"
            // A condition that is NULL for an object (a comparison with a nil value) is not met.
            case .all: return "NOT EXISTS (SELECT 1 " + subquery.from + " AND NOT COALESCE(" + inner + ", (1 = 0)))"
            }
        }
    }

    /// The SQL of sort keys.
    mutating func compile(_ keys: [OrderBy<some StrataObject>.SortKey]) throws(StrataError) -> [SQLFragment] {
        Self.orderTerms(try sortExpressions(keys))
    }

    /// The `ORDER BY` terms of sort expressions: each with `ASC` or `DESC`.
    static func orderTerms(_ keys: [(sql: String, ascending: Bool)]) -> [SQLFragment] {
        keys.map { SQLFragment($0.sql + ($0.ascending ? " ASC" : " DESC")) }
    }

    /// Each sort key's expression (the value SQLite orders by) and direction.
    mutating func sortExpressions(_ keys: [OrderBy<some StrataObject>.SortKey]) throws(StrataError) -> [(sql: String, ascending: Bool)] {
        var result: [(sql: String, ascending: Bool)] = []
        for key in keys {
            result.append((try sortExpression(key.path), key.ascending))
        }
        return result
    }

    /// The value SQLite orders by for a property path: the column, or for a decimal (stored as
    /// text) its numeric value.
    mutating func sortExpression(_ path: PropertyPath) throws(StrataError) -> String {
        switch path {
        case .invalid(let invalid):
            _ = try compile(invalid)
            throw .invalidQuery("not a property path")
        case .name(let name):
            let resolved = try column(for: name)
            return resolved.attribute?.type == .decimal ? dialect.decimalSortKey(resolved.sql) : resolved.sql
        }
    }
}

/// Text matching in SQL. Case-insensitive matches compare `strata_fold(...)`, a function every
/// Strata connection registers that folds case by Unicode rules.
enum TextMatchSQL {
    static func condition(column: String, match: WhereExpression.TextMatch, pattern: String, caseInsensitive: Bool,
                          dialect: SQLDialect) -> SQLFragment {
        let value = caseInsensitive ? "strata_fold(" + column + ")" : column
        let argument = caseInsensitive ? "strata_fold(?)" : "?"
        switch match {
        case .contains:
            return SQLFragment(dialect.contains(value, argument), [.text(pattern)])
        case .beginsWith:
            return SQLFragment("substr(" + value + ", 1, length(" + argument + ")) = " + argument, [.text(pattern), .text(pattern)])
        case .endsWith:
            return SQLFragment("(? = '' OR " + dialect.suffix(value, count: "length(" + argument + ")") + " = " + argument + ")",
                               [.text(pattern), .text(pattern), .text(pattern)])
        case .like:
            return dialect.like(value, argument, pattern: pattern)
        }
    }

    /// LIKE wildcards (`%`, `_`, `\` escape) as a GLOB pattern, which is case-sensitive.
    static func globPattern(fromLike pattern: String) -> String {
        var result = ""
        var escaping = false
        for character in pattern {
            if escaping {
                result += literal(character)
                escaping = false
                continue
            }
            switch character {
            case "\\": escaping = true
            case "%": result += "*"
            case "_": result += "?"
            default: result += literal(character)
            }
        }
        if escaping { result += literal("\\") }
        return result
    }

    private static func literal(_ character: Character) -> String {
        switch character {
        case "*", "?", "[": return "[" + String(character) + "]"
        default: return String(character)
        }
    }
}
