/// The identity map of a context: row key to object, as an open-addressing hash table.
///
/// Row ids are mostly dense and ascending, so the slot is the row id plus a per-table offset:
/// a fetch touches the table in order (few cache misses) and never runs SipHash, where a
/// `Dictionary` would hash every row. Because dense ids land in consecutive slots, probe runs stay
/// short even at the high load the table allows (7/8), which halves its memory for large fetches
/// against the usual 3/4.
///
/// A fetch's objects are registered lazily: `insert(_:)` keeps the batch (one array, no per-object
/// work) and the table takes it in at the first access that needs it. A read context that fetches
/// and reads its objects never builds the table: a fifth of a large fetch's time went there.
struct Registry {
    /// Whether `occupied` slots of `size` are more than the table may hold.
    @inline(__always)
    private static func isOverfull(_ occupied: Int, _ size: Int) -> Bool { occupied * 8 > size * 7 }

    private static let empty = ObjectKey(storage: Int32.min, table: 0, rowID: 0)
    private static let removed = ObjectKey(storage: Int32.min, table: 1, rowID: 0)

    private var keys: [ObjectKey]
    private var objects: [StrataObject?]
    private var storedCount = 0
    /// Batches registered but not yet in the table, oldest first.
    private var pending: [[StrataObject]] = []
    /// Objects registered one at a time since the last batch (a transaction's creates), not yet in
    /// the table: they join it in one batch, which grows the table once.
    private var singles: [StrataObject] = []
    /// Occupied slots, removed ones included.
    private var used = 0
    private var mask: Int

    init(capacity: Int = 64) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        keys = Array(repeating: Self.empty, count: size)
        objects = Array(repeating: nil, count: size)
        mask = size - 1
    }

    /// How many objects are registered.
    var count: Int {
        mutating get {
            settle()
            return storedCount
        }
    }

    /// Whether no object is registered, without taking pending batches in.
    var isEmpty: Bool { storedCount == 0 && pending.isEmpty && singles.isEmpty }

    /// At least `count`, without taking pending batches in (a batch may hold objects already
    /// registered): what the main context compares with its purge threshold.
    var countUpperBound: Int { pending.reduce(storedCount + singles.count) { $0 + $1.count } }

    /// Takes the pending batches into the table, in the order they came.
    @inline(__always)
    private mutating func settle() {
        guard !pending.isEmpty || !singles.isEmpty else { return }
        closeSingles()
        let batches = pending
        pending = []
        for batch in batches { insertNow(batch) }
    }

    @inline(__always)
    private func slot(for key: ObjectKey) -> Int {
        Self.slot(for: key, mask: mask)
    }

    @inline(__always)
    private static func slot(for key: ObjectKey, mask: Int) -> Int {
        let table = (UInt64(UInt32(bitPattern: key.table)) << 32 | UInt64(UInt32(bitPattern: key.storage))) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: UInt64(bitPattern: key.rowID) &+ (table >> 40)) & mask
    }

    /// The object for a key.
    subscript(key: ObjectKey) -> StrataObject? {
        mutating get {
            settle()
            var index = slot(for: key)
            while true {
                let stored = keys[index]
                if stored == key { return objects[index] }
                if stored == Self.empty { return nil }
                index = (index + 1) & mask
            }
        }
        set {
            settle()
            if let newValue { insert(newValue, for: key) } else { remove(key) }
        }
    }

    /// Makes room for `additional` more entries, so a batch of inserts never rehashes midway.
    mutating func reserve(_ additional: Int) {
        settle()
        var size = keys.count
        while Self.isOverfull(used + additional, size) { size <<= 1 }
        if size > keys.count { rehash(size: size) }
    }

    /// Registers a batch of objects (each replacing any object registered under its key), when the
    /// table is next needed.
    mutating func insert(_ batch: [StrataObject]) {
        guard !batch.isEmpty else { return }
        closeSingles()
        pending.append(batch)
    }

    /// Registers one object (replacing any object registered under its key) when the table is
    /// next needed, under the key it has then.
    mutating func insertLater(_ object: StrataObject) {
        singles.append(object)
    }

    /// Ends the run of single objects as a pending batch, so batches keep the order they came in.
    private mutating func closeSingles() {
        guard !singles.isEmpty else { return }
        pending.append(singles)
        singles = []
    }

    /// Puts a batch into the table, growing it once and probing it through raw buffers.
    private mutating func insertNow(_ batch: [StrataObject]) {
        reserve(batch.count)
        let mask = self.mask
        var added = 0
        var newSlots = 0
        keys.withUnsafeMutableBufferPointer { keys in
            objects.withUnsafeMutableBufferPointer { objects in
                for object in batch {
                    let key = object.key
                    let place = Self.locate(key, in: UnsafeBufferPointer(keys), mask: mask)
                    if !place.found {
                        if !place.reusesRemoved { newSlots += 1 }
                        keys[place.index] = key
                    }
                    if objects[place.index] == nil { added += 1 }
                    objects[place.index] = object
                }
            }
        }
        used += newSlots
        storedCount += added
    }

    /// The object for a key, or the one `make` creates, registered under the key.
    @inline(__always)
    mutating func object(for key: ObjectKey, orInsert make: () -> StrataObject) -> StrataObject {
        settle()
        if Self.isOverfull(used + 1, keys.count) { grow() }
        let place = locate(key)
        if place.found, let object = objects[place.index] { return object }
        let object = make()
        store(object, for: key, at: place)
        return object
    }

    /// Registers an object under a key, replacing any other, with one probe of the table.
    private mutating func insert(_ object: StrataObject, for key: ObjectKey) {
        if Self.isOverfull(used + 1, keys.count) { grow() }
        store(object, for: key, at: locate(key))
    }

    /// Where a key is (`found`), or where it goes: the first removed slot on its probe path, else
    /// the empty slot that ends the path.
    @inline(__always)
    private func locate(_ key: ObjectKey) -> (index: Int, found: Bool, reusesRemoved: Bool) {
        keys.withUnsafeBufferPointer { Self.locate(key, in: $0, mask: mask) }
    }

    /// `locate` over the key buffer itself, for loops that already hold it.
    @inline(__always)
    private static func locate(_ key: ObjectKey, in keys: UnsafeBufferPointer<ObjectKey>, mask: Int) -> (index: Int, found: Bool, reusesRemoved: Bool) {
        var index = slot(for: key, mask: mask)
        var reusable = -1
        while true {
            let stored = keys[index]
            if stored == key { return (index, true, false) }
            if stored == empty { break }
            if stored == removed, reusable < 0 { reusable = index }
            index = (index + 1) & mask
        }
        return reusable >= 0 ? (reusable, false, true) : (index, false, false)
    }

    @inline(__always)
    private mutating func store(_ object: StrataObject, for key: ObjectKey, at place: (index: Int, found: Bool, reusesRemoved: Bool)) {
        if !place.found {
            if !place.reusesRemoved { used += 1 }
            storedCount += 1
            keys[place.index] = key
        } else if objects[place.index] == nil {
            storedCount += 1
        }
        objects[place.index] = object
    }

    private mutating func remove(_ key: ObjectKey) {
        var index = slot(for: key)
        while true {
            let stored = keys[index]
            if stored == key {
                keys[index] = Self.removed
                objects[index] = nil
                storedCount -= 1
                return
            }
            if stored == Self.empty { return }
            index = (index + 1) & mask
        }
    }

    /// Rehashes into a table twice as large (or the same size, to drop removed slots), moving
    /// each entry once.
    private mutating func grow() {
        rehash(size: storedCount * 2 > keys.count / 2 ? keys.count * 2 : keys.count)
    }

    /// Moves every entry into new tables of `size` slots, through raw buffers: no bounds or
    /// uniqueness checks, and each object is moved, not retained and released.
    private mutating func rehash(size: Int) {
        var newKeys = Array(repeating: Self.empty, count: size)
        var newObjects = Array(repeating: StrataObject?.none, count: size)
        let newMask = size - 1
        newKeys.withUnsafeMutableBufferPointer { newKeys in
            newObjects.withUnsafeMutableBufferPointer { newObjects in
                keys.withUnsafeBufferPointer { oldKeys in
                    objects.withUnsafeMutableBufferPointer { oldObjects in
                        for index in oldKeys.indices {
                            let key = oldKeys[index]
                            guard key.storage != Int32.min else { continue }
                            var slot = Self.slot(for: key, mask: newMask)
                            while newKeys[slot] != Self.empty { slot = (slot + 1) & newMask }
                            newKeys[slot] = key
                            swap(&newObjects[slot], &oldObjects[index])
                        }
                    }
                }
            }
        }
        keys = newKeys
        objects = newObjects
        mask = newMask
        used = storedCount
    }

    /// Every object.
    var values: [StrataObject] {
        mutating get {
            settle()
            return objects.compactMap { $0 }
        }
    }

    /// Every key.
    var allKeys: [ObjectKey] {
        mutating get {
            settle()
            return keys.filter { $0.storage != Int32.min }
        }
    }

    /// Empties the map.
    mutating func removeAll() {
        self = Registry()
    }

    /// Keeps only the objects `keep` accepts; the object is passed `inout` so the caller can test
    /// whether the map holds the only reference.
    mutating func filter(_ keep: (inout StrataObject) -> Bool) {
        settle()
        for index in keys.indices where keys[index].storage != Int32.min {
            guard var object = objects[index] else { continue }
            objects[index] = nil
            if keep(&object) {
                objects[index] = object
            } else {
                keys[index] = Self.removed
                storedCount -= 1
            }
        }
    }
}
