/// A synced object's state in the compact binary form a node stores it in (its sync tables), read
/// and written without Codable: a device and a server read and write a state for every object
/// they sync, and JSON coding was most of that work. The wire keeps the JSON form.
///
/// Layout (integers little-endian, counts and lengths as LEB128): a version byte (2); the
/// attributes (name, value, timestamp each); the counters (name, then node, increments and
/// decrements each); the sets (name, then member, a flags byte and the timestamps it flags
/// each); the orders (name, members, timestamp); a flag byte and the deletion's timestamp.
/// A timestamp is a count: 0 then the timestamp written out (milliseconds, counter, node), or
/// N for the Nth one written out before it, since a commit's writes share one timestamp (the
/// node alone is 36 bytes). Version 1 wrote every timestamp out, without the count; it still reads.
extension SyncedObject {
    /// The state in its stored form.
    package var storedBytes: [UInt8] {
        var writer = StoredWriter()
        writer.byte(2)
        writer.count(attributes.count)
        for (name, value) in attributes.sorted(by: { $0.key < $1.key }) {
            writer.string(name)
            writer.value(value.value)
            writer.stamp(value.stamp)
        }
        writer.count(counters.count)
        for (name, counter) in counters.sorted(by: { $0.key < $1.key }) {
            writer.string(name)
            writer.count(counter.contributions.count)
            for (node, totals) in counter.contributions.sorted(by: { $0.key < $1.key }) {
                writer.string(node)
                writer.int64(totals.up)
                writer.int64(totals.down)
            }
        }
        writer.count(sets.count)
        for (name, members) in sets.sorted(by: { $0.key < $1.key }) {
            writer.string(name)
            writer.count(members.count)
            for (member, stamps) in members.sorted(by: { $0.key < $1.key }) {
                writer.string(member)
                writer.byte((stamps.added == nil ? 0 : 1) | (stamps.removed == nil ? 0 : 2))
                if let added = stamps.added { writer.stamp(added) }
                if let removed = stamps.removed { writer.stamp(removed) }
            }
        }
        writer.count(orders.count)
        for (name, order) in orders.sorted(by: { $0.key < $1.key }) {
            writer.string(name)
            writer.count(order.members.count)
            for member in order.members { writer.string(member) }
            writer.stamp(order.stamp)
        }
        writer.byte(deleted == nil ? 0 : 1)
        if let deleted { writer.stamp(deleted) }
        return writer.bytes
    }

    /// Reads a state in its stored form; nil when the bytes are not one.
    package init?(storedBytes bytes: [UInt8]) {
        var reader = StoredReader(bytes: bytes)
        switch reader.byte() {
        case 1: reader.sharesStamps = false
        case 2: reader.sharesStamps = true
        default: return nil
        }
        self.init()
        guard let attributeCount = reader.count() else { return nil }
        for _ in 0..<attributeCount {
            guard let name = reader.string(), let value = reader.value(), let stamp = reader.stamp() else { return nil }
            attributes[name] = StampedValue(value, at: stamp)
        }
        guard let counterCount = reader.count() else { return nil }
        for _ in 0..<counterCount {
            guard let name = reader.string(), let nodes = reader.count() else { return nil }
            var counter = SyncCounter()
            for _ in 0..<nodes {
                guard let node = reader.string(), let up = reader.int64(), let down = reader.int64() else { return nil }
                counter.contributions[node] = SyncCounter.Totals(up: up, down: down)
            }
            counters[name] = counter
        }
        guard let setCount = reader.count() else { return nil }
        for _ in 0..<setCount {
            guard let name = reader.string(), let memberCount = reader.count() else { return nil }
            var members: [String: MemberStamps] = [:]
            for _ in 0..<memberCount {
                guard let member = reader.string(), let flags = reader.byte() else { return nil }
                var stamps = MemberStamps()
                if flags & 1 != 0 { guard let added = reader.stamp() else { return nil }; stamps.added = added }
                if flags & 2 != 0 { guard let removed = reader.stamp() else { return nil }; stamps.removed = removed }
                members[member] = stamps
            }
            sets[name] = members
        }
        guard let orderCount = reader.count() else { return nil }
        for _ in 0..<orderCount {
            guard let name = reader.string(), let memberCount = reader.count() else { return nil }
            var members: [String] = []
            members.reserveCapacity(memberCount)
            for _ in 0..<memberCount {
                guard let member = reader.string() else { return nil }
                members.append(member)
            }
            guard let stamp = reader.stamp() else { return nil }
            orders[name] = StampedOrder(members: members, stamp: stamp)
        }
        guard let flag = reader.byte() else { return nil }
        if flag == 1 {
            guard let stamp = reader.stamp() else { return nil }
            deleted = stamp
        }
        guard reader.isAtEnd else { return nil }
    }
}

/// Appends the stored form's parts.
private struct StoredWriter {
    var bytes: [UInt8] = []
    /// The timestamps written out so far, in order.
    private var stamps: [SyncTimestamp] = []

    init() {
        bytes.reserveCapacity(256)
    }

    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    mutating func count(_ value: Int) {
        var rest = UInt64(value)
        repeat {
            let low = UInt8(rest & 0x7F)
            rest >>= 7
            bytes.append(rest == 0 ? low : low | 0x80)
        } while rest != 0
    }

    mutating func int64(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            count(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    /// Writes a timestamp as the number of an equal one written out before (among the latest
    /// 16, which keeps a large state's writing linear), or out in full.
    mutating func stamp(_ stamp: SyncTimestamp) {
        if let earlier = stamps.indices.suffix(16).last(where: { stamps[$0] == stamp }) {
            count(earlier + 1)
            return
        }
        count(0)
        stamps.append(stamp)
        int64(stamp.milliseconds)
        count(Int(stamp.counter))
        string(stamp.node)
    }

    mutating func value(_ value: SyncValue) {
        switch value {
        case .null:
            byte(0)
        case .integer(let integer):
            byte(1)
            int64(integer)
        case .real(let real):
            byte(2)
            int64(Int64(bitPattern: real.bitPattern))
        case .text(let text):
            byte(3)
            string(text)
        case .blob(let blob):
            byte(4)
            count(blob.count)
            bytes.append(contentsOf: blob)
        }
    }
}

/// Reads the stored form's parts; each read is nil past the end.
private struct StoredReader {
    let bytes: [UInt8]
    var offset = 0
    /// Whether timestamps may refer to earlier ones (version 2).
    var sharesStamps = true
    /// The timestamps read out in full so far, in order.
    private var stamps: [SyncTimestamp] = []

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func byte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func count() -> Int? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while let next = byte() {
            value |= UInt64(next & 0x7F) << shift
            if next & 0x80 == 0 { return value <= UInt64(Int.max) ? Int(value) : nil }
            shift += 7
            if shift > 63 { return nil }
        }
        return nil
    }

    mutating func int64() -> Int64? {
        guard offset + 8 <= bytes.count else { return nil }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        offset += 8
        return Int64(bitPattern: value)
    }

    mutating func raw(_ length: Int) -> ArraySlice<UInt8>? {
        guard length >= 0, offset + length <= bytes.count else { return nil }
        defer { offset += length }
        return bytes[offset..<(offset + length)]
    }

    mutating func string() -> String? {
        guard let length = count(), let utf8 = raw(length) else { return nil }
        return String(decoding: utf8, as: UTF8.self)
    }

    mutating func stamp() -> SyncTimestamp? {
        if sharesStamps {
            guard let reference = count() else { return nil }
            if reference > 0 { return reference <= stamps.count ? stamps[reference - 1] : nil }
        }
        guard let milliseconds = int64(), let counter = count(), let counterValue = UInt32(exactly: counter), let node = string() else { return nil }
        let stamp = SyncTimestamp(milliseconds: milliseconds, counter: counterValue, node: node)
        stamps.append(stamp)
        return stamp
    }

    mutating func value() -> SyncValue? {
        switch byte() {
        case 0: return .null
        case 1: return int64().map(SyncValue.integer)
        case 2: return int64().map { .real(Double(bitPattern: UInt64(bitPattern: $0))) }
        case 3: return string().map(SyncValue.text)
        case 4:
            guard let length = count(), let blob = raw(length) else { return nil }
            return .blob(Array(blob))
        default: return nil
        }
    }
}
