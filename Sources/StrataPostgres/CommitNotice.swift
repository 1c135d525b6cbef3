// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import Foundation
import Strata

/// What a commit's notification says: the committed transaction's id, then, after a space, the
/// tables whose rows it changed as a JSON array of names (`741 ["Person","Dog"]`). A notice
/// without the list (an earlier Strata's, a commit that changed relationships, or a list too long
/// for a notification) says the tables are unknown, and a stack that hears it reads everything
/// again, as it does for a commit it heard nothing of.
struct CommitNotice: Equatable {
    /// The committed transaction's id.
    let id: Int64
    /// The tables the commit changed; nil when unknown.
    let tables: [String]?

    /// PostgreSQL's limit for a payload is 8,000 bytes; a longer list is left out.
    static let longestList = 7_900

    /// What follows the id in the payload of a commit that changed `tables`.
    static func suffix(tables: [String]?) -> String {
        guard let tables, let json = try? JSONEncoder().encode(tables), json.count <= longestList else { return "" }
        return " " + String(decoding: json, as: UTF8.self)
    }

    /// The notice a payload carries; nil when it is not one.
    init?(payload: String) {
        let parts = payload.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first, let id = Int64(first) else { return nil }
        self.id = id
        if parts.count == 2 {
            guard let tables = try? JSONDecoder().decode([String].self, from: Data(parts[1].utf8)) else { return nil }
            self.tables = tables
        } else {
            tables = nil
        }
    }

    init(id: Int64, tables: [String]?) {
        self.id = id
        self.tables = tables
    }
}
#endif
