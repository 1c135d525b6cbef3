/// The objects of a monitored list in order, grouped into sections: what a monitor keeps between
/// commits and what its snapshots share (copying it copies chunk references, not entries).
struct ListState: Sendable {
    /// One section: its key and how many objects it has.
    struct Section: Sendable {
        let value: SectionValue
        var count: Int
    }

    private(set) var entries = SortedEntries()
    /// In order. A plain list always has exactly one section, keyed NULL.
    private(set) var sections: [Section]
    let isSectioned: Bool
    let ordering: ListOrdering

    /// A state holding entries already in order.
    init(sorted: [ListEntry], isSectioned: Bool, ordering: ListOrdering) {
        self.isSectioned = isSectioned
        self.ordering = ordering
        entries = SortedEntries(sorted: sorted)
        guard isSectioned else {
            sections = [Section(value: SectionValue(value: .null), count: sorted.count)]
            return
        }
        sections = []
        for entry in sorted {
            let value = SectionValue(value: entry.sortValues[0])
            if let last = sections.last, last.value == value {
                sections[sections.count - 1].count += 1
            } else {
                sections.append(Section(value: value, count: 1))
            }
        }
    }

    /// How many objects the list has.
    var count: Int { entries.count }

    /// The section key of an entry.
    func sectionValue(of entry: ListEntry) -> SectionValue {
        SectionValue(value: isSectioned ? entry.sortValues[0] : .null)
    }

    /// Where a section with this key is, or would be inserted, and whether it exists.
    private func locateSection(_ value: SectionValue) -> (index: Int, found: Bool) {
        guard isSectioned else { return (0, true) }
        var low = 0
        var high = sections.count
        while low < high {
            let middle = (low + high) / 2
            var order = SQLiteOrdering.compare(sections[middle].value.value, value.value)
            if !ordering.ascending[0] { order = -order }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return (low, low < sections.count && sections[low].value == value)
    }

    /// The index path of a position in the whole list.
    func indexPath(ofIndex index: Int) -> ListIndexPath {
        var remaining = index
        for (section, info) in sections.enumerated() {
            if remaining < info.count { return ListIndexPath(item: remaining, section: section) }
            remaining -= info.count
        }
        return ListIndexPath(item: remaining, section: max(sections.count - 1, 0))
    }

    /// The position in the whole list of an index path.
    func index(of indexPath: ListIndexPath) -> Int {
        sections[..<indexPath.section].reduce(0) { $0 + $1.count } + indexPath.item
    }

    /// The index path of an entry in the list, or nil.
    func indexPath(of entry: ListEntry) -> ListIndexPath? {
        entries.index(of: entry, ordering).map(indexPath(ofIndex:))
    }

    /// Adds an entry in order, opening its section when it is new.
    mutating func insert(_ entry: ListEntry) {
        entries.insert(entry, ordering)
        let (index, found) = locateSection(sectionValue(of: entry))
        if found {
            sections[index].count += 1
        } else {
            sections.insert(Section(value: sectionValue(of: entry), count: 1), at: index)
        }
    }

    /// Removes an entry, closing its section when it empties (a plain list keeps its one section).
    @discardableResult
    mutating func remove(_ entry: ListEntry) -> Bool {
        guard entries.remove(entry, ordering) != nil else { return false }
        let (index, found) = locateSection(sectionValue(of: entry))
        guard found else { return true }
        sections[index].count -= 1
        if sections[index].count == 0, isSectioned { sections.remove(at: index) }
        return true
    }
}
