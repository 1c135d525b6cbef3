// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import Foundation
import Strata
import Synchronization

/// What a notification of commits says: the committed transaction's id, then `+` and the id of the
/// transaction that sent the notification (which PostgreSQL gives one, and which changes nothing),
/// then, after a space, the tables whose rows the commit changed as a JSON array of names
/// (`741+742 ["Person","Dog"]`). A notification may tell of more commits of its stack, one a line
/// after the first, each its id and its tables (`745 ["Dog"]`): a stack gathers its commits of a
/// few milliseconds into one notification (see `CommitAnnouncer`). A commit without the list (one
/// that changed relationships, or a list too long for a notification) says its tables are
/// unknown, and a stack that hears it reads everything again, as it does for a commit it heard
/// nothing of. An earlier Strata sent the notification inside the committing transaction, so its
/// notices have no second id; JSON escapes a line break inside a name, so a line is always one
/// commit.
struct CommitNotice: Equatable {
    /// The committed transaction's id.
    let id: Int64
    /// The id of the transaction that sent the notification after the commit, if another one did.
    let notifier: Int64?
    /// The tables the commit changed; nil when unknown.
    let tables: [String]?
    /// The other commits the notification tells of, in the order they were made.
    let others: [HeardCommit]

    /// The commits the notice tells of: each commit with its tables, and the transaction that sent
    /// it, which changed no table.
    var heardCommits: [HeardCommit] {
        [HeardCommit(id: id, tables: tables)] + others + (notifier.map { [HeardCommit(id: $0, tables: [])] } ?? [])
    }

    /// The ids of the commits the notice tells of, without the notifying transaction's.
    var commitIDs: [Int64] { [id] + others.map(\.id) }

    /// PostgreSQL's limit for a payload is 8,000 bytes; a longer list is left out.
    static let longestList = 7_900
    /// The longest payload an announcer makes before the notifier's id goes in (at most 21 bytes
    /// with its `+`): a line of one commit with the longest list fits.
    static let longestPayload = 7_950

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
        let lines = payload.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = Self.commit(lines[0], mayName: true) else { return nil }
        var others: [HeardCommit] = []
        others.reserveCapacity(lines.count - 1)
        for line in lines.dropFirst() {
            guard let commit = Self.commit(line, mayName: false) else { return nil }
            others.append(commit.commit)
        }
        self.init(id: first.commit.id, notifier: first.notifier, tables: first.commit.tables, others: others)
    }

    /// One line of a payload: a commit's id (with the notifier's after `+` when `mayName`), then,
    /// after a space, its tables.
    private static func commit(_ line: Substring, mayName: Bool) -> (commit: HeardCommit, notifier: Int64?)? {
        let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first else { return nil }
        let ids = first.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false)
        guard let id = Int64(ids[0]) else { return nil }
        var notifier: Int64?
        if ids.count == 2 {
            guard mayName, let named = Int64(ids[1]) else { return nil }
            notifier = named
        }
        guard parts.count == 2 else { return (HeardCommit(id: id, tables: nil), notifier) }
        if let known = decoded.withLock({ $0[parts[1]] }) { return (HeardCommit(id: id, tables: known), notifier) }
        guard let tables = try? JSONDecoder().decode([String].self, from: Data(parts[1].utf8)) else { return nil }
        remember(tables, for: parts[1], in: decoded)
        return (HeardCommit(id: id, tables: tables), notifier)
    }

    init(id: Int64, notifier: Int64? = nil, tables: [String]?, others: [HeardCommit] = []) {
        self.id = id
        self.notifier = notifier
        self.tables = tables
        self.others = others
    }
}
#endif
