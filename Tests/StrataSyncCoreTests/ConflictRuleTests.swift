import StrataSyncCore
import Testing

/// Each conflict rule, on concurrent changes of two nodes, gives one answer whichever state
/// merges into which.
@Suite("Conflict rules")
struct ConflictRuleTests {
    private func stamp(_ milliseconds: Int64, _ node: String, counter: UInt32 = 0) -> SyncTimestamp {
        SyncTimestamp(milliseconds: milliseconds, counter: counter, node: node)
    }

    /// Both merge orders, which must agree.
    private func both(_ a: SyncedObject, _ b: SyncedObject) -> SyncedObject {
        let ab = a.merged(with: b)
        #expect(ab == b.merged(with: a), "merging is not commutative")
        return ab
    }

    @Test func theLastWriterOfAnAttributeWinsAndTiesGoToTheNode() {
        var a = SyncedObject()
        var b = SyncedObject()
        a.set("name", to: .text("Rex"), at: stamp(10, "a"))
        b.set("name", to: .text("Max"), at: stamp(12, "b"))
        #expect(both(a, b).value(of: "name") == .text("Max"))
        var c = SyncedObject()
        c.set("name", to: .text("Bo"), at: stamp(12, "c"))
        #expect(both(b, c).value(of: "name") == .text("Bo"), "same time and counter: the node decides")
        var d = SyncedObject()
        d.set("name", to: .text("Cy"), at: stamp(12, "a", counter: 1))
        #expect(both(c, d).value(of: "name") == .text("Cy"), "the counter before the node")
    }

    @Test func aDeletionWinsOverEditsBeforeAndAfterIt() {
        var deleted = SyncedObject()
        deleted.delete(at: stamp(5, "a"))
        var edited = SyncedObject()
        edited.set("name", to: .text("later"), at: stamp(9, "b"))
        let merged = both(deleted, edited)
        #expect(merged.isDeleted)
        #expect(merged.value(of: "name") == .text("later"), "the edit is kept, but the object stays deleted")
    }

    @Test func concurrentIncrementsAddUp() {
        var a = SyncedObject()
        var b = SyncedObject()
        a.add(3, to: "visits", by: "a")
        b.add(4, to: "visits", by: "b")
        b.add(-1, to: "visits", by: "b")
        let merged = both(a, b)
        #expect(merged.value(of: "visits") == .integer(6))
        var again = merged
        again.add(2, to: "visits", by: "a")
        #expect(both(again, b).value(of: "visits") == .integer(8), "a node's totals only grow, so merging an older state adds nothing")
    }

    @Test func unorderedMembersMergeOneByOne() {
        var a = SyncedObject()
        var b = SyncedObject()
        a.insert("dog-1", into: "pets", at: stamp(1, "a"))
        a.insert("dog-2", into: "pets", at: stamp(2, "a"))
        b.insert("dog-3", into: "pets", at: stamp(3, "b"))
        b.remove("dog-1", from: "pets", at: stamp(4, "b"))
        #expect(both(a, b).members(of: "pets") == ["dog-2", "dog-3"])
        var c = SyncedObject()
        c.insert("dog-1", into: "pets", at: stamp(5, "c"))
        #expect(both(both(a, b), c).members(of: "pets") == ["dog-1", "dog-2", "dog-3"], "an addition after the removal brings it back")
    }

    @Test func anOrderedRelationshipsOrderIsTheLastWritersWhole() {
        var a = SyncedObject()
        var b = SyncedObject()
        a.order("friends", as: ["x", "y"], at: stamp(7, "a"))
        b.order("friends", as: ["z"], at: stamp(6, "b"))
        #expect(both(a, b).members(of: "friends") == ["x", "y"])
    }

    @Test func timestampsReadBackFromTheirWireForm() throws {
        let timestamp = stamp(1_733_380_000_000, "client-a@home", counter: 3)
        #expect(timestamp.description == "1733380000000.3@client-a@home")
        #expect(SyncTimestamp(timestamp.description) == timestamp)
        for bad in ["", "12@a", "x.1@a", "1.x@a", "1.2@", "1.2"] {
            #expect(SyncTimestamp(bad) == nil, "'\(bad)'")
        }
    }

    @Test func theClockNeverGoesBackAndOrdersAfterWhatItSaw() {
        var clock = HybridLogicalClock(node: "a")
        let first = clock.stamp(wallClock: 100)
        let second = clock.stamp(wallClock: 90)
        #expect(second > first, "a wall clock that went back does not")
        clock.receive(SyncTimestamp(milliseconds: 500, counter: 7, node: "b"), wallClock: 110)
        let third = clock.stamp(wallClock: 120)
        #expect(third > SyncTimestamp(milliseconds: 500, counter: 7, node: "b"))
        #expect(third.milliseconds == 500 && third.node == "a")
        var restarted = HybridLogicalClock(node: "a", after: third)
        #expect(restarted.stamp(wallClock: 0) > third)
    }
}
