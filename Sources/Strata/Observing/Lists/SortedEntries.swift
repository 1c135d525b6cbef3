/// A sorted list of entries kept in chunks, so that one insertion or removal moves a few hundred
/// entries instead of the whole list, and a copy (a snapshot) shares every chunk it does not change.
struct SortedEntries: Sendable {
    /// Chunks hold up to twice this many entries before they split.
    static let chunkSize = 256

    private(set) var chunks: [[ListEntry]] = []
    private(set) var count = 0

    /// An empty list.
    init() {}

    /// A list of entries already in order.
    init(sorted entries: [ListEntry]) {
        var start = 0
        while start < entries.count {
            let end = min(start + Self.chunkSize, entries.count)
            chunks.append(Array(entries[start..<end]))
            start = end
        }
        count = entries.count
    }

    /// Every entry, in order.
    var all: [ListEntry] { chunks.flatMap { $0 } }

    /// The entry at a position.
    subscript(index: Int) -> ListEntry {
        var remaining = index
        for chunk in chunks {
            if remaining < chunk.count { return chunk[remaining] }
            remaining -= chunk.count
        }
        preconditionFailure("Strata: index \(index) is out of a list of \(count) objects")
    }

    /// Where an entry is, or would be inserted: the chunk, the offset in it, the position in the
    /// list, and whether an equal entry is there.
    private func locate(_ entry: ListEntry, _ ordering: ListOrdering) -> (chunk: Int, offset: Int, index: Int, found: Bool) {
        // The first chunk whose last entry does not come before `entry`.
        var low = 0
        var high = chunks.count
        while low < high {
            let middle = (low + high) / 2
            if let last = chunks[middle].last, ordering.compare(last, entry) < 0 { low = middle + 1 } else { high = middle }
        }
        let before = chunks[..<low].reduce(0) { $0 + $1.count }
        guard low < chunks.count else { return (max(chunks.count - 1, 0), chunks.last?.count ?? 0, before, false) }
        let chunk = chunks[low]
        var first = 0
        var last = chunk.count
        while first < last {
            let middle = (first + last) / 2
            if ordering.compare(chunk[middle], entry) < 0 { first = middle + 1 } else { last = middle }
        }
        let found = first < chunk.count && ordering.compare(chunk[first], entry) == 0
        return (low, first, before + first, found)
    }

    /// The position of an entry that is in the list, or nil.
    func index(of entry: ListEntry, _ ordering: ListOrdering) -> Int? {
        let place = locate(entry, ordering)
        return place.found ? place.index : nil
    }

    /// Inserts an entry in order; returns its position.
    @discardableResult
    mutating func insert(_ entry: ListEntry, _ ordering: ListOrdering) -> Int {
        count += 1
        guard !chunks.isEmpty else {
            chunks = [[entry]]
            return 0
        }
        let place = locate(entry, ordering)
        chunks[place.chunk].insert(entry, at: place.offset)
        if chunks[place.chunk].count > 2 * Self.chunkSize {
            let tail = Array(chunks[place.chunk][Self.chunkSize...])
            chunks[place.chunk].removeSubrange(Self.chunkSize...)
            chunks.insert(tail, at: place.chunk + 1)
        }
        return place.index
    }

    /// Removes an entry that is in the list; returns where it was, or nil when it was not there.
    @discardableResult
    mutating func remove(_ entry: ListEntry, _ ordering: ListOrdering) -> Int? {
        let place = locate(entry, ordering)
        guard place.found else { return nil }
        chunks[place.chunk].remove(at: place.offset)
        if chunks[place.chunk].isEmpty { chunks.remove(at: place.chunk) }
        count -= 1
        return place.index
    }
}
