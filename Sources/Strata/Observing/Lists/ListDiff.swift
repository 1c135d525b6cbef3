/// Change sets between two states of a list: by comparing them whole (after changes nobody
/// described, or to merge change sets a slow consumer missed), or by applying a few changed rows.
enum ListDiff {
    /// Section changes between two section lists.
    private static func sectionChanges<T>(_ old: [ListState.Section], _ new: [ListState.Section], into set: inout ListChangeSet<T>) {
        let oldValues = Set(old.map(\.value))
        let newValues = Set(new.map(\.value))
        for (index, section) in old.enumerated() where !newValues.contains(section.value) {
            set.deletedSections.append(.init(identifier: section.value.identifier, index: index))
        }
        for (index, section) in new.enumerated() where !oldValues.contains(section.value) {
            set.insertedSections.append(.init(identifier: section.value.identifier, index: index))
        }
    }

    /// Every index path of a state, by position.
    private static func indexPaths(_ state: ListState) -> [ListIndexPath] {
        var paths: [ListIndexPath] = []
        paths.reserveCapacity(state.count)
        for (section, info) in state.sections.enumerated() {
            for item in 0..<info.count { paths.append(ListIndexPath(item: item, section: section)) }
        }
        return paths
    }

    /// The changes that turn `old` into `new`: objects in both that keep their order relative to
    /// each other (the longest such run) stay; the others move. `updated` names objects whose
    /// values changed.
    static func changes<T>(from old: ListState, to new: ListState, updated: Set<ObjectKey>) -> ListChangeSet<T> {
        var set = ListChangeSet<T>()
        sectionChanges(old.sections, new.sections, into: &set)
        let oldEntries = old.entries.all
        let newEntries = new.entries.all
        let oldPaths = indexPaths(old)
        let newPaths = indexPaths(new)
        var oldIndex: [ObjectKey: Int] = [:]
        oldIndex.reserveCapacity(oldEntries.count)
        for (index, entry) in oldEntries.enumerated() { oldIndex[entry.key] = index }
        var kept: [(old: Int, new: Int)] = []
        var present = Set<ObjectKey>()
        for (index, entry) in newEntries.enumerated() {
            present.insert(entry.key)
            if let previous = oldIndex[entry.key] {
                kept.append((previous, index))
            } else {
                set.inserted.append(.init(objectID: ListSnapshot.id(entry), indexPath: newPaths[index]))
            }
        }
        for (index, entry) in oldEntries.enumerated() where !present.contains(entry.key) {
            set.deleted.append(.init(objectID: ListSnapshot.id(entry), indexPath: oldPaths[index]))
        }
        let stays = longestIncreasingRun(kept.map(\.old))
        for (position, pair) in kept.enumerated() {
            let entry = newEntries[pair.new]
            let sameSection = old.sectionValue(of: oldEntries[pair.old]) == new.sectionValue(of: entry)
            let isUpdated = updated.contains(entry.key)
            let change = ListChangeSet<T>.Move(objectID: ListSnapshot.id(entry), from: oldPaths[pair.old], to: newPaths[pair.new], isUpdated: isUpdated)
            if !stays.contains(position) || !sameSection {
                set.moved.append(change)
            } else if isUpdated {
                set.updated.append(change)
            }
        }
        set.sort()
        return set
    }

    /// The positions of a longest strictly increasing subsequence (patience sorting, n log n).
    static func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []           // positions, by run length - 1
        var previous = Array(repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var run = Set<Int>()
        var position = tails.last ?? -1
        while position >= 0 {
            run.insert(position)
            position = previous[position]
        }
        return run
    }

    /// Applies changed rows to a state: `rows` holds, for each changed key, its entry now (nil
    /// when it is not a member); `updated` the keys whose values changed. Returns the changes.
    static func apply<T>(_ rows: [ObjectKey: ListEntry?], updated: Set<ObjectKey>, to state: inout ListState,
                         members: inout [ObjectKey: ListEntry]) -> ListChangeSet<T> {
        var set = ListChangeSet<T>()
        let oldSections = state.sections
        var removals: [(entry: ListEntry, from: ListIndexPath)] = []
        var insertions: [ListEntry] = []
        var inPlace: [(entry: ListEntry, from: ListIndexPath)] = []
        var moved: [ObjectKey: ListIndexPath] = [:]
        for (key, now) in rows {
            let before = members[key]
            switch (before, now) {
            case (nil, nil):
                continue
            case (nil, let entry?):
                insertions.append(entry)
            case (let entry?, nil):
                guard let from = state.indexPath(of: entry) else { continue }
                removals.append((entry, from))
            case (let old?, let new?):
                guard let from = state.indexPath(of: old) else { continue }
                if state.ordering.compare(old, new) == 0 {
                    if updated.contains(key) { inPlace.append((new, from)) }
                } else {
                    removals.append((old, from))
                    insertions.append(new)
                    moved[key] = from
                }
            }
        }
        for removal in removals {
            state.remove(removal.entry)
            members[removal.entry.key] = nil
        }
        for entry in insertions {
            state.insert(entry)
            members[entry.key] = entry
        }
        for removal in removals where moved[removal.entry.key] == nil {
            set.deleted.append(.init(objectID: ListSnapshot.id(removal.entry), indexPath: removal.from))
        }
        for entry in insertions {
            guard let to = state.indexPath(of: entry) else { continue }
            if let from = moved[entry.key] {
                set.moved.append(.init(objectID: ListSnapshot.id(entry), from: from, to: to, isUpdated: updated.contains(entry.key)))
            } else {
                set.inserted.append(.init(objectID: ListSnapshot.id(entry), indexPath: to))
            }
        }
        for (entry, from) in inPlace {
            guard let to = state.indexPath(of: entry) else { continue }
            set.updated.append(.init(objectID: ListSnapshot.id(entry), from: from, to: to, isUpdated: true))
        }
        sectionChanges(oldSections, state.sections, into: &set)
        set.sort()
        return set
    }
}
