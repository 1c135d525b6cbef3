@testable import Strata

/// A list as plain values: each section's identifier and IDs.
struct PlainList<T: StrataObject>: Equatable, CustomStringConvertible {
    var sections: [(identifier: String?, ids: [ObjectID<T>])]

    init(_ snapshot: ListSnapshot<T>) {
        sections = snapshot.sections.indices.map { (snapshot.sections[$0].identifier, snapshot.itemIDs(inSection: $0)) }
    }

    static func == (lhs: PlainList, rhs: PlainList) -> Bool {
        lhs.sections.count == rhs.sections.count
            && zip(lhs.sections, rhs.sections).allSatisfy { $0.identifier == $1.identifier && $0.ids == $1.ids }
    }

    var description: String {
        sections.map { "\($0.identifier ?? "nil"): \($0.ids.map(\.rowID))" }.joined(separator: " | ")
    }

    /// Applies a change set the way a table view does (see `ListChangeSet`); returns nil when a
    /// step does not fit the list (a wrong index path, a section not empty when deleted).
    func applying(_ changes: ListChangeSet<T>) -> PlainList? {
        var result = self
        var removals = changes.deleted.map { ($0.indexPath, $0.objectID) } + changes.moved.map { ($0.from, $0.objectID) }
        removals.sort { $0.0 > $1.0 }
        for (path, id) in removals {
            guard path.section < result.sections.count, path.item < result.sections[path.section].ids.count,
                  result.sections[path.section].ids[path.item] == id else { return nil }
            result.sections[path.section].ids.remove(at: path.item)
        }
        for section in changes.deletedSections.reversed() {
            guard section.index < result.sections.count, result.sections[section.index].ids.isEmpty,
                  result.sections[section.index].identifier == section.identifier else { return nil }
            result.sections.remove(at: section.index)
        }
        for section in changes.insertedSections {
            guard section.index <= result.sections.count else { return nil }
            result.sections.insert((section.identifier, []), at: section.index)
        }
        var insertions = changes.inserted.map { ($0.indexPath, $0.objectID) } + changes.moved.map { ($0.to, $0.objectID) }
        insertions.sort { $0.0 < $1.0 }
        for (path, id) in insertions {
            guard path.section < result.sections.count, path.item <= result.sections[path.section].ids.count else { return nil }
            result.sections[path.section].ids.insert(id, at: path.item)
        }
        for update in changes.updated {
            guard update.to.section < result.sections.count, update.to.item < result.sections[update.to.section].ids.count,
                  result.sections[update.to.section].ids[update.to.item] == update.objectID,
                  update.from.section < sections.count, update.from.item < sections[update.from.section].ids.count,
                  sections[update.from.section].ids[update.from.item] == update.objectID else { return nil }
        }
        return result
    }
}
