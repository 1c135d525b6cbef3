import StrataSyncCore
import StrataTestSupport
import Testing

/// Properties over random changes: merging is commutative, associative and idempotent, and nodes
/// that sync in any order, offline for a while, with clocks that drift, end up holding the same
/// objects as the server. Each run prints nothing; a failure names its seed.
@Suite("Convergence")
struct ConvergenceTests {
    static let seeds: [UInt64] = Array(1...40)
    static let objects = ["o1", "o2", "o3"]

    /// One random change by `node` at `stamp`: the change to send, and what it added to the
    /// counter.
    @discardableResult
    static func change(_ object: inout SyncedObject, by node: String, at stamp: SyncTimestamp,
                       using random: inout SeededGenerator) -> (change: SyncedObject, counted: Int64) {
        let member = "m\(Int.random(in: 1...4, using: &random))"
        switch Int.random(in: 0..<12, using: &random) {
        case 0..<4:
            let values: [SyncValue] = [.null, .integer(Int64.random(in: -5...5, using: &random)), .text(member), .real(.nan), .blob([1, 2])]
            return (object.set(["name", "size", "owner"].randomElement(using: &random)!, to: values.randomElement(using: &random)!, at: stamp), 0)
        case 4..<6:
            let delta = Int64.random(in: -3...5, using: &random)
            return (object.add(delta, to: "visits", by: node), delta)
        case 6..<8: return (object.insert(member, into: "pets", at: stamp), 0)
        case 8..<10: return (object.remove(member, from: "pets", at: stamp), 0)
        case 10:
            let members = Array(["m1", "m2", "m3"].shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)))
            return (object.order("friends", as: members, at: stamp), 0)
        default: return (object.delete(at: stamp), 0)
        }
    }

    /// A state of random changes by random nodes.
    static func randomState(using random: inout SeededGenerator) -> SyncedObject {
        var object = SyncedObject()
        var clocks = ["a", "b", "c"].map { HybridLogicalClock(node: $0) }
        for _ in 0..<Int.random(in: 0...12, using: &random) {
            let index = Int.random(in: 0..<clocks.count, using: &random)
            let stamp = clocks[index].stamp(wallClock: Int64.random(in: 0...20, using: &random))
            change(&object, by: clocks[index].node, at: stamp, using: &random)
        }
        return object
    }

    @Test(arguments: seeds)
    func mergingIsCommutativeAssociativeAndIdempotent(seed: UInt64) {
        var random = SeededGenerator(state: seed)
        let (x, y, z) = (Self.randomState(using: &random), Self.randomState(using: &random), Self.randomState(using: &random))
        #expect(x.merged(with: y) == y.merged(with: x), "seed \(seed): not commutative")
        #expect(x.merged(with: y).merged(with: z) == x.merged(with: y.merged(with: z)), "seed \(seed): not associative")
        #expect(x.merged(with: x) == x, "seed \(seed): not idempotent")
        #expect(x.merged(with: SyncedObject()) == x, "seed \(seed): the empty state is not neutral")
    }

    /// A device: its objects, its clock, and the changes it has not pushed yet.
    struct Node {
        var clock: HybridLogicalClock
        var objects: [String: SyncedObject] = [:]
        var outbox: [(String, SyncedObject)] = []
        /// How far its clock runs ahead of (or behind) true time.
        var skew: Int64
        var online = true
    }

    /// Three devices and the server's own code change the same objects, offline for stretches,
    /// pushing and pulling in random orders with clocks that drift; after everyone pushes and
    /// pulls once more, every device holds exactly the server's objects.
    @Test(arguments: seeds)
    func devicesThatSyncInAnyOrderConverge(seed: UInt64) {
        var random = SeededGenerator(state: seed)
        var nodes = ["a", "b", "c"].map { Node(clock: HybridLogicalClock(node: $0), skew: Int64.random(in: -50...50, using: &random)) }
        var server: [String: SyncedObject] = [:]
        var serverClock = HybridLogicalClock(node: "server")
        var time: Int64 = 1_000
        var counted: [String: Int64] = [:]
        func push(_ index: Int) {
            for (id, delta) in nodes[index].outbox {
                server[id] = (server[id] ?? SyncedObject()).merged(with: delta)
            }
            nodes[index].outbox = []
            serverClock.receive(nodes[index].clock.latest, wallClock: time)
        }
        func pull(_ index: Int) {
            for (id, state) in server {
                nodes[index].objects[id] = (nodes[index].objects[id] ?? SyncedObject()).merged(with: state)
            }
            nodes[index].clock.receive(serverClock.latest, wallClock: time + nodes[index].skew)
        }
        for _ in 0..<200 {
            time += Int64.random(in: 0...3, using: &random)
            let index = Int.random(in: 0...nodes.count, using: &random)
            let id = Self.objects.randomElement(using: &random)!
            if index == nodes.count {
                // The server's own code (a REST route) changes an object.
                let stamp = serverClock.stamp(wallClock: time)
                var object = server[id] ?? SyncedObject()
                counted[id, default: 0] += Self.change(&object, by: "server", at: stamp, using: &random).counted
                server[id] = object
                continue
            }
            switch Int.random(in: 0..<10, using: &random) {
            case 0: nodes[index].online.toggle()
            case 1 where nodes[index].online: push(index)
            case 2 where nodes[index].online: pull(index)
            default:
                // A local commit: the object changes, and the outbox holds what changed.
                let stamp = nodes[index].clock.stamp(wallClock: time + nodes[index].skew)
                var object = nodes[index].objects[id] ?? SyncedObject()
                let (change, added) = Self.change(&object, by: nodes[index].clock.node, at: stamp, using: &random)
                counted[id, default: 0] += added
                nodes[index].objects[id] = object
                nodes[index].outbox.append((id, change))
            }
        }
        for index in nodes.indices { push(index) }
        for index in nodes.indices { pull(index) }
        for node in nodes {
            #expect(node.objects == server, "seed \(seed): \(node.clock.node) differs from the server")
        }
        for (id, total) in counted where server[id]?.value(of: "visits") != nil {
            #expect(server[id]?.value(of: "visits") == .integer(total), "seed \(seed): \(id)'s counter lost or doubled an increment")
        }
    }

    /// A counter's delta made on one device keeps that device's running totals, so the outbox's
    /// later deltas carry every earlier increment and the server's sum counts each once.
    @Test func countersCountEachIncrementOnceThroughAnOutbox() {
        var device = SyncedObject()
        var outbox: [SyncedObject] = []
        for delta: Int64 in [2, 3, -1] {
            outbox.append(device.add(delta, to: "visits", by: "a"))
        }
        var server = SyncedObject()
        for change in outbox + outbox { server = server.merged(with: change) }
        #expect(server.value(of: "visits") == .integer(4))
    }
}
