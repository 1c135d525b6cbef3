import Foundation

/// Gathers the objects of a fetch, one per row, and hands them over as one array.
///
/// `Array.append` calls the standard library's uniqueness-and-capacity check for every element
/// (a call that is not inlined for class elements): about 25 instructions a row of a large fetch,
/// and the doubling copies on top. This keeps the references in a buffer of its own that grows
/// with `realloc` (which moves large buffers by remapping pages, not by copying), and copies them
/// into an array of exactly the right size once, at the end.
///
/// It is noncopyable, so the buffer has one owner; when a fetch throws midway, its `deinit`
/// releases the objects gathered so far.
struct ObjectCollector: ~Copyable {
    private var base: UnsafeMutablePointer<StrataObject>
    private var count = 0
    private var capacity: Int

    /// An empty collector for a fetch of at most `limit` rows (nil: no limit), with room for
    /// that many (16 at least, 1,024 at most; 64 without a limit) before it grows.
    init(limit: Int? = nil) {
        capacity = Swift.min(Swift.max(limit ?? 64, 16), 1024)
        base = Self.resized(nil, to: capacity)
    }

    deinit {
        base.deinitialize(count: count)
        free(base)
    }

    /// Adds an object at the end.
    @inline(__always)
    mutating func append(_ object: __owned StrataObject) {
        if count == capacity { grow() }
        (base + count).initialize(to: object)
        count += 1
    }

    /// The objects gathered, in order.
    consuming func finish() -> [StrataObject] {
        let count = self.count
        let base = self.base
        discard self
        // An empty result is the literal: `Array(unsafeUninitializedCapacity: 0)` stores its count
        // into the standard library's one shared empty-array storage, a write that two threads
        // finishing empty fetches at once would race on (ThreadSanitizer reports it).
        guard count > 0 else {
            free(base)
            return []
        }
        let result = [StrataObject](unsafeUninitializedCapacity: count) { buffer, initialized in
            buffer.baseAddress?.moveInitialize(from: base, count: count)
            initialized = count
        }
        free(base)
        return result
    }

    @inline(never)
    private mutating func grow() {
        capacity *= 2
        base = Self.resized(base, to: capacity)
    }

    /// A buffer for `capacity` references: `old`'s, moved by `realloc` when there is one. Class
    /// references are plain pointers, so moving them bit for bit is a valid move.
    private static func resized(_ old: UnsafeMutablePointer<StrataObject>?, to capacity: Int) -> UnsafeMutablePointer<StrataObject> {
        let bytes = capacity * MemoryLayout<StrataObject>.stride
        guard let raw = realloc(old.map(UnsafeMutableRawPointer.init), bytes) else {
            fatalError("out of memory gathering \(capacity) fetched objects")
        }
        return raw.bindMemory(to: StrataObject.self, capacity: capacity)
    }
}
