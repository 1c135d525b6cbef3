/// The identity map of a context: row key to object, as an open-addressing hash table with a
/// cheap multiplicative hash. Fetching costs one probe per row here, where a `Dictionary` would
/// run SipHash for every row.
struct Registry {
    private var keys: [ObjectKey?]
    private var objects: [StrataObject?]
    private var tombstones: [Bool]
    private(set) var count = 0
    private var used = 0
    private var mask: Int

    init(capacity: Int = 64) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        keys = Array(repeating: nil, count: size)
        objects = Array(repeating: nil, count: size)
        tombstones = Array(repeating: false, count: size)
        mask = size - 1
    }

    @inline(__always)
    private func slot(for key: ObjectKey) -> Int {
        let mixed = UInt64(bitPattern: key.rowID) &* 0x9E37_79B9_7F4A_7C15
            ^ (UInt64(UInt32(bitPattern: key.table)) << 32 | UInt64(UInt32(bitPattern: key.storage))) &* 0xC2B2_AE3D_27D4_EB4F
        return Int(truncatingIfNeeded: mixed >> 20) & mask
    }

    /// The object for a key.
    subscript(key: ObjectKey) -> StrataObject? {
        get {
            var index = slot(for: key)
            while true {
                guard let stored = keys[index] else {
                    if tombstones[index] { index = (index + 1) & mask; continue }
                    return nil
                }
                if stored == key { return objects[index] }
                index = (index + 1) & mask
            }
        }
        set {
            if let newValue { insert(newValue, for: key) } else { remove(key) }
        }
    }

    private mutating func insert(_ object: StrataObject, for key: ObjectKey) {
        if (used + 1) * 4 > keys.count * 3 { grow() }
        var index = slot(for: key)
        var firstFree: Int?
        while true {
            guard let stored = keys[index] else {
                if tombstones[index] {
                    if firstFree == nil { firstFree = index }
                    index = (index + 1) & mask
                    continue
                }
                let target = firstFree ?? index
                if firstFree == nil { used += 1 }
                tombstones[target] = false
                keys[target] = key
                objects[target] = object
                count += 1
                return
            }
            if stored == key {
                objects[index] = object
                return
            }
            index = (index + 1) & mask
        }
    }

    private mutating func remove(_ key: ObjectKey) {
        var index = slot(for: key)
        while true {
            guard let stored = keys[index] else {
                if tombstones[index] { index = (index + 1) & mask; continue }
                return
            }
            if stored == key {
                keys[index] = nil
                objects[index] = nil
                tombstones[index] = true
                count -= 1
                return
            }
            index = (index + 1) & mask
        }
    }

    /// Rehashes into a table twice as large (or the same size, to drop tombstones), moving each
    /// entry once.
    private mutating func grow() {
        let size = count * 2 > keys.count / 2 ? keys.count * 2 : keys.count
        var oldKeys = Array(repeating: ObjectKey?.none, count: size)
        var oldObjects = Array(repeating: StrataObject?.none, count: size)
        swap(&oldKeys, &keys)
        swap(&oldObjects, &objects)
        tombstones = Array(repeating: false, count: size)
        mask = size - 1
        used = count
        for index in oldKeys.indices {
            guard let key = oldKeys[index] else { continue }
            var slot = slot(for: key)
            while keys[slot] != nil { slot = (slot + 1) & mask }
            keys[slot] = key
            swap(&objects[slot], &oldObjects[index])
        }
    }

    /// Every object.
    var values: [StrataObject] { objects.compactMap { $0 } }

    /// Every key.
    var allKeys: [ObjectKey] { keys.compactMap { $0 } }

    /// Empties the map.
    mutating func removeAll() {
        self = Registry()
    }

    /// Keeps only the objects `keep` accepts; the object is passed `inout` so the caller can test
    /// whether the map holds the only reference.
    mutating func filter(_ keep: (inout StrataObject) -> Bool) {
        for index in keys.indices where keys[index] != nil {
            guard var object = objects[index] else { continue }
            objects[index] = nil
            if keep(&object) {
                objects[index] = object
            } else {
                keys[index] = nil
                tombstones[index] = true
                count -= 1
            }
        }
    }
}
