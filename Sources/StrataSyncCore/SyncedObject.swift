/// One synced object as every node converges on it: what each attribute, counter and
/// relationship holds, with what decides between concurrent changes. Merging two states is
/// commutative, associative and idempotent, so nodes that have seen the same changes hold the same
/// object whatever order the changes came in. The rules:
///
/// - an attribute (and a to-one relationship, by the related object's global ID): the last writer
///   wins, by ``SyncTimestamp`` (time, then counter, then node, so there is never a tie);
/// - a counter (`merge: add`): the changes of every node add up (``SyncCounter``);
/// - an unordered to-many relationship: member by member, a member is in it when its latest
///   addition is later than its latest removal;
/// - an ordered to-many relationship: its order as a whole, the last writer winning;
/// - a deletion wins over every edit, made before or after it: a deleted object stays deleted.
///
/// A change sent over the wire is a state too, holding only what the change touched: each
/// changing method returns it.
public struct SyncedObject: Hashable, Sendable {
    /// Attributes and to-one relationships, by name.
    public internal(set) var attributes: [String: StampedValue] = [:]
    /// Counters, by attribute name.
    public internal(set) var counters: [String: SyncCounter] = [:]
    /// Unordered to-many relationships, by name: each member's latest addition and removal.
    public internal(set) var sets: [String: [String: MemberStamps]] = [:]
    /// Ordered to-many relationships, by name: the members' global IDs in order, as last written.
    public internal(set) var orders: [String: StampedOrder] = [:]
    /// When the object was deleted; nil while it is not.
    public internal(set) var deleted: SyncTimestamp?

    /// The latest addition and removal of one member of an unordered relationship.
    public struct MemberStamps: Hashable, Sendable, Codable {
        /// The latest addition.
        public var added: SyncTimestamp?
        /// The latest removal.
        public var removed: SyncTimestamp?

        /// Whether the member is in the relationship.
        public var isMember: Bool {
            guard let added else { return false }
            return removed.map { added > $0 } ?? true
        }
    }

    /// An ordered relationship's members as one write set them.
    public struct StampedOrder: Hashable, Sendable, Codable {
        /// Global IDs, in order.
        public var members: [String]
        /// When they were set.
        public var stamp: SyncTimestamp
    }

    /// An object no change has touched.
    public init() {}

    /// Whether a deletion has reached it.
    public var isDeleted: Bool { deleted != nil }

    /// Whether it holds a write of any property (attribute, counter or relationship).
    package var touchesProperties: Bool {
        !attributes.isEmpty || !counters.isEmpty || !sets.isEmpty || !orders.isEmpty
    }

    /// Whether it holds no change at all.
    package var isEmpty: Bool { !touchesProperties && deleted == nil }

    /// An attribute's value (a counter's sum); nil when no change has set it.
    public func value(of name: String) -> SyncValue? {
        if let counter = counters[name] { return .integer(counter.value) }
        return attributes[name]?.value
    }

    /// A to-many relationship's members: an ordered one's in order, an unordered one's sorted.
    public func members(of name: String) -> [String] {
        if let order = orders[name] { return order.members }
        return (sets[name] ?? [:]).filter(\.value.isMember).keys.sorted()
    }

    // MARK: Changes

    /// Sets an attribute (or a to-one relationship) to `value`, written at `stamp`.
    @discardableResult
    public mutating func set(_ name: String, to value: SyncValue, at stamp: SyncTimestamp) -> SyncedObject {
        var change = SyncedObject()
        change.attributes[name] = StampedValue(value, at: stamp)
        absorb(change)
        return change
    }

    /// Sets an attribute to a write known to be later than any the state holds (stamped by
    /// this node's clock just now), without comparing them.
    package mutating func setLatest(_ name: String, to write: StampedValue) {
        attributes[name] = write
    }

    /// Adds `delta` to a counter, as `node`'s change; the change holds `node`'s totals.
    @discardableResult
    public mutating func add(_ delta: Int64, to name: String, by node: String) -> SyncedObject {
        counters[name, default: SyncCounter()].add(delta, by: node)
        var change = SyncedObject()
        change.counters[name] = counters[name]?.only(node)
        return change
    }

    /// Adds a member to an unordered relationship at `stamp`.
    @discardableResult
    public mutating func insert(_ member: String, into name: String, at stamp: SyncTimestamp) -> SyncedObject {
        var change = SyncedObject()
        change.sets[name] = [member: MemberStamps(added: stamp, removed: nil)]
        absorb(change)
        return change
    }

    /// Removes a member from an unordered relationship at `stamp`.
    @discardableResult
    public mutating func remove(_ member: String, from name: String, at stamp: SyncTimestamp) -> SyncedObject {
        var change = SyncedObject()
        change.sets[name] = [member: MemberStamps(added: nil, removed: stamp)]
        absorb(change)
        return change
    }

    /// Sets an ordered relationship's members, in order, at `stamp`.
    @discardableResult
    public mutating func order(_ name: String, as members: [String], at stamp: SyncTimestamp) -> SyncedObject {
        var change = SyncedObject()
        change.orders[name] = StampedOrder(members: members, stamp: stamp)
        absorb(change)
        return change
    }

    /// Deletes the object at `stamp`.
    @discardableResult
    public mutating func delete(at stamp: SyncTimestamp) -> SyncedObject {
        var change = SyncedObject()
        change.deleted = stamp
        absorb(change)
        return change
    }

    // MARK: Merging

    /// The state that holds both states' changes, decided by the rules above.
    public func merged(with other: SyncedObject) -> SyncedObject {
        var result = self
        result.absorb(other)
        return result
    }

    /// Merges `other`'s changes into this state, in place (see ``merged(with:)``).
    public mutating func absorb(_ other: SyncedObject) {
        if attributes.isEmpty, counters.isEmpty, sets.isEmpty, orders.isEmpty, deleted == nil {
            self = other   // a state nothing touched yet (a new object's) takes the other whole
            return
        }
        for (name, write) in other.attributes {
            attributes[name] = StampedValue.later(attributes[name], write)
        }
        for (name, counter) in other.counters {
            counters[name] = counters[name].map { $0.merged(with: counter) } ?? counter
        }
        for (name, members) in other.sets {
            for (member, stamps) in members {
                var ours = sets[name]?[member] ?? MemberStamps()
                ours.added = Self.later(ours.added, stamps.added)
                ours.removed = Self.later(ours.removed, stamps.removed)
                sets[name, default: [:]][member] = ours
            }
        }
        for (name, order) in other.orders {
            if let ours = orders[name], ours.stamp > order.stamp { continue }
            orders[name] = order
        }
        deleted = Self.later(deleted, other.deleted)
    }

    private static func later(_ a: SyncTimestamp?, _ b: SyncTimestamp?) -> SyncTimestamp? {
        guard let a else { return b }
        guard let b else { return a }
        return max(a, b)
    }
}

extension SyncedObject: Codable {
    private enum Key: String, CodingKey {
        case attributes, counters, sets, orders, deleted
    }

    /// Reads a state; each part may be left out (a change holds only what it touched).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        attributes = try container.decodeIfPresent([String: StampedValue].self, forKey: .attributes) ?? [:]
        counters = try container.decodeIfPresent([String: SyncCounter].self, forKey: .counters) ?? [:]
        sets = try container.decodeIfPresent([String: [String: MemberStamps]].self, forKey: .sets) ?? [:]
        orders = try container.decodeIfPresent([String: StampedOrder].self, forKey: .orders) ?? [:]
        deleted = try container.decodeIfPresent(SyncTimestamp.self, forKey: .deleted)
    }

    /// Writes the parts that hold something.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        if !attributes.isEmpty { try container.encode(attributes, forKey: .attributes) }
        if !counters.isEmpty { try container.encode(counters, forKey: .counters) }
        if !sets.isEmpty { try container.encode(sets, forKey: .sets) }
        if !orders.isEmpty { try container.encode(orders, forKey: .orders) }
        try container.encodeIfPresent(deleted, forKey: .deleted)
    }
}
