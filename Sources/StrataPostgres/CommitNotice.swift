// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import Foundation
import Strata
import Synchronization

/// What a commit's notification says: the committed transaction's id, then `+` and the id of the
/// transaction that sent the notification (which PostgreSQL gives one, and which changes nothing),
/// then, after a space, the tables whose rows the commit changed as a JSON array of names
/// (`741+742 ["Person","Dog"]`). A notice without the list (a commit that changed relationships,
/// or a list too long for a notification) says the tables are unknown, and a stack that hears it
/// reads everything again, as it does for a commit it heard nothing of. An earlier Strata sent the
/// notification inside the committing transaction, so its notices have no second id.
struct CommitNotice: Equatable {
    /// The committed transaction's id.
    let id: Int64
    /// The id of the transaction that sent the notification after the commit, if another one did.
    let notifier: Int64?
    /// The tables the commit changed; nil when unknown.
    let tables: [String]?

    /// The commits the notice tells of: its commit with its tables, and the transaction that sent
    /// it, which changed no table.
    var heardCommits: [HeardCommit] {
        [HeardCommit(id: id, tables: tables)] + (notifier.map { [HeardCommit(id: $0, tables: [])] } ?? [])
    }

    /// PostgreSQL's limit for a payload is 8,000 bytes; a longer list is left out.
    static let longestList = 7_900

    /// What follows the id in the payload of a commit that changed `tables`.
    static func suffix(tables: [String]?) -> String {
        guard let tables else { return "" }
        if let known = encoded.withLock({ $0[tables] }) { return known }
        guard let json = try? JSONEncoder().encode(tables), json.count <= longestList else { return "" }
        let suffix = " " + String(decoding: json, as: UTF8.self)
        remember(suffix, for: tables, in: encoded)
        return suffix
    }

    /// A stack's commits change a few sets of tables over and over, and its listeners hear the
    /// same lists again: both ways are kept (up to ``remembered`` of each), so a commit and a
    /// notice cost no JSON coding once their list was seen.
    private static let encoded = Mutex<[[String]: String]>([:])
    private static let decoded = Mutex<[Substring: [String]]>([:])
    static let remembered = 256

    private static func remember<Key: Hashable & Sendable, Value: Sendable>(_ value: Value, for key: Key, in cache: borrowing Mutex<[Key: Value]>) {
        cache.withLock { cache in
            if cache.count >= remembered { cache.removeAll(keepingCapacity: true) }
            cache[key] = value
        }
    }

    /// The notice a payload carries; nil when it is not one.
    init?(payload: String) {
        let parts = payload.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first else { return nil }
        let ids = first.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false)
        guard let id = Int64(ids[0]) else { return nil }
        if ids.count == 2 {
            guard let notifier = Int64(ids[1]) else { return nil }
            self.notifier = notifier
        } else {
            notifier = nil
        }
        self.id = id
        if parts.count == 2 {
            if let known = Self.decoded.withLock({ $0[parts[1]] }) {
                tables = known
                return
            }
            guard let tables = try? JSONDecoder().decode([String].self, from: Data(parts[1].utf8)) else { return nil }
            Self.remember(tables, for: parts[1], in: Self.decoded)
            self.tables = tables
        } else {
            tables = nil
        }
    }

    init(id: Int64, notifier: Int64? = nil, tables: [String]?) {
        self.id = id
        self.notifier = notifier
        self.tables = tables
    }
}
#endif
