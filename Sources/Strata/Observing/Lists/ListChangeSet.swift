/// What one or more commits changed in a monitored list, by position, in the form table and
/// collection views apply in a batch:
///
/// 1. remove the ``deleted`` objects and the sources of the ``moved`` ones (old index paths),
/// 2. remove the ``deletedSections`` (old indexes, empty by then),
/// 3. insert the ``insertedSections`` (new indexes, empty at first),
/// 4. insert the ``inserted`` objects and the destinations of the ``moved`` ones (new index
///    paths, ascending),
/// 5. reload the ``updated`` objects (which changed in place: `from` is their old index path,
///    `to` their new one).
///
/// Applied this way to the list before, it yields the list after, exactly.
public struct ListChangeSet<T: StrataObject>: Sendable, Hashable {
    /// An object at a position.
    public struct Item: Sendable, Hashable {
        /// The object.
        public let objectID: ObjectID<T>
        /// Its position: in the list before for deletions, after for insertions.
        public let indexPath: ListIndexPath
    }

    /// An object that moved, or changed in place.
    public struct Move: Sendable, Hashable {
        /// The object.
        public let objectID: ObjectID<T>
        /// Its position in the list before.
        public let from: ListIndexPath
        /// Its position in the list after.
        public let to: ListIndexPath
        /// Whether its values changed too.
        public let isUpdated: Bool
    }

    /// A section that appeared or went away.
    public struct SectionChange: Sendable, Hashable {
        /// The section's identifier (see ``ListSnapshot/Section/identifier``).
        public let identifier: String?
        /// Its index: in the list before for deletions, after for insertions.
        public let index: Int
    }

    /// Sections that went away, by their old index, ascending.
    public internal(set) var deletedSections: [SectionChange] = []
    /// Sections that appeared, by their new index, ascending.
    public internal(set) var insertedSections: [SectionChange] = []
    /// Objects that left the list, by their old index path, ascending.
    public internal(set) var deleted: [Item] = []
    /// Objects that joined the list, by their new index path, ascending.
    public internal(set) var inserted: [Item] = []
    /// Objects whose position changed relative to the others, by their new index path, ascending.
    public internal(set) var moved: [Move] = []
    /// Objects whose values changed and which kept their place among the others.
    public internal(set) var updated: [Move] = []

    /// Whether nothing changed.
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && deleted.isEmpty && inserted.isEmpty && moved.isEmpty && updated.isEmpty
    }

    /// Puts each kind of change in the order the documentation promises.
    mutating func sort() {
        deletedSections.sort { $0.index < $1.index }
        insertedSections.sort { $0.index < $1.index }
        deleted.sort { $0.indexPath < $1.indexPath }
        inserted.sort { $0.indexPath < $1.indexPath }
        moved.sort { $0.to < $1.to }
        updated.sort { $0.to < $1.to }
    }
}
