/// A monitored list at one committed state, as a `Sendable` value: the IDs of its objects in
/// order, grouped into sections. Two snapshots are equal when they hold the same sections and
/// IDs in the same order, so a snapshot can feed a diffable data source as it is.
///
/// Turn an ID back into an object with `stack.fetchExisting(id)` on the main actor, or with
/// `transaction.fetchExisting(id)` inside a transaction.
public struct ListSnapshot<T: StrataObject>: Sendable, Hashable {
    /// One section: its identifier, its display name, its index title, and how many objects it holds.
    public struct Section: Sendable, Hashable {
        /// The section key's value as text (numbers in Swift's exact form, data in hex); nil for
        /// the one section of a plain list and for objects whose key is nil.
        public let identifier: String?
        /// The name to show: the identifier, or what `SectionBy`'s `sectionName` made of it.
        public let name: String?
        /// The short title a side index shows for the section: what `SectionBy`'s
        /// `sectionIndexTitle` made of the identifier; nil without one.
        public let indexTitle: String?
        /// How many objects the section holds.
        public let count: Int
    }

    let state: ListState
    /// The sections, in order. A plain list always has exactly one.
    public let sections: [Section]

    init(state: ListState, labels: SectionLabels) {
        self.state = state
        sections = state.sections.map { section in
            let identifier = section.value.identifier
            return Section(identifier: identifier, name: labels.name.map { $0(identifier) } ?? identifier,
                           indexTitle: labels.indexTitle?(identifier), count: section.count)
        }
    }

    /// The titles of a side index, as a table view asks for them: each section's index title in
    /// section order, a title that several sections share once, sections without one left out.
    public var sectionIndexTitles: [String] {
        var seen = Set<String>()
        return sections.compactMap { section in section.indexTitle.flatMap { seen.insert($0).inserted ? $0 : nil } }
    }

    /// The section a side index's title leads to: the first section with that index title; nil
    /// when no section has it.
    public func section(forSectionIndexTitle title: String) -> Int? {
        sections.firstIndex { $0.indexTitle == title }
    }

    /// How many objects the list holds.
    public var count: Int { state.count }

    /// Whether the list holds no object.
    public var isEmpty: Bool { state.count == 0 }

    /// How many sections the list has.
    public var numberOfSections: Int { sections.count }

    /// The IDs of every object, in order.
    public var itemIDs: [ObjectID<T>] { state.entries.all.map(Self.id) }

    /// The IDs of a section's objects, in order.
    public func itemIDs(inSection section: Int) -> [ObjectID<T>] {
        let start = state.index(of: ListIndexPath(item: 0, section: section))
        return (start..<(start + sections[section].count)).map { Self.id(state.entries[$0]) }
    }

    /// The ID at a position in the whole list.
    public subscript(index: Int) -> ObjectID<T> { Self.id(state.entries[index]) }

    /// The ID at an index path.
    public subscript(indexPath: ListIndexPath) -> ObjectID<T> { self[state.index(of: indexPath)] }

    /// The index path of an object, or nil when the list does not hold it.
    public func indexPath(of id: ObjectID<T>) -> ListIndexPath? {
        state.entries.all.firstIndex { $0.key == id.key }.map(state.indexPath(ofIndex:))
    }

    static func id(_ entry: ListEntry) -> ObjectID<T> { ObjectID(key: entry.key, entityName: entry.entityName) }

    /// Same sections, same IDs in the same order.
    public static func == (lhs: ListSnapshot, rhs: ListSnapshot) -> Bool {
        guard lhs.sections == rhs.sections else { return false }
        return lhs.state.entries.all.elementsEqual(rhs.state.entries.all) { $0.key == $1.key && $0.entityName == $1.entityName }
    }

    /// Hashes the sections and the IDs in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(sections)
        for entry in state.entries.all { hasher.combine(entry.key) }
    }
}
