import Foundation
import KennelV1Device
import KennelV2Device
import PropertyBased
import Strata
import StrataTestSupport
import Testing

/// A device at V1, a device at V2 and the V2 server's own code make random creates and edits
/// (renamed attributes, widened weights, counters, V2-only ages) and sync in random orders.
/// After a final sync the V2 device holds what the server holds, the V1 device holds the same in
/// V1's terms, and every counter holds every increment.
@Suite @MainActor struct CrossVersionConvergenceTests {
    enum Step: CustomStringConvertible {
        case create(node: Int)
        case rename(node: Int, pick: Int, name: Int)
        case weigh(node: Int, pick: Int, weight: Int32)
        case visit(node: Int, pick: Int, by: Int64)
        case age(node: Int, pick: Int, age: Int32)
        case sync(node: Int)

        /// Node 0 is the V1 device, 1 the V2 device, 2 the server's own code.
        init(_ number: Int) {
            let node = number % 3
            let a = (number / 30) % 97
            let b = (number / 2_910) % 89
            switch (number / 3) % 10 {
            case 0: self = .create(node: node)
            case 1: self = .rename(node: node, pick: a, name: b % 5)
            case 2: self = .weigh(node: node, pick: a, weight: b % 7 == 0 ? 40_000 + Int32(b) : Int32(b))
            case 3, 4: self = .visit(node: node, pick: a, by: 1 + Int64(b % 4))
            case 5: self = .age(node: node, pick: a, age: Int32(b))
            default: self = .sync(node: node)
            }
        }

        var description: String {
            switch self {
            case .create(let node): "n\(node) create"
            case .rename(let node, let pick, let name): "n\(node) name #\(pick) n\(name)"
            case .weigh(let node, let pick, let weight): "n\(node) weigh #\(pick) \(weight)"
            case .visit(let node, let pick, let by): "n\(node) visit #\(pick) +\(by)"
            case .age(let node, let pick, let age): "n\(node) age #\(pick) \(age)"
            case .sync(let node): "n\(node) sync"
            }
        }
    }

    @Test func devicesOnTwoVersionsConvergeByTheRules() async throws {
        await propertyCheck(count: 25, input: Gen.int(in: 0...1_000_000_000).array(of: 10...50)) { numbers in
            do {
                try await Self.run(numbers.map(Step.init))
            } catch {
                Issue.record("the script \(numbers.map(Step.init)) failed: \(error)")
            }
        }
    }

    static func run(_ script: [Step]) async throws {
        let kennel = try await SyncAcrossVersionsTests.Kennel.make()
        let old = try await kennel.v1()
        let new = try await kennel.v2()
        var created = 0
        var visits: [String: Int64] = [:]
        func names(_ node: Int) throws -> [String] {
            switch node {
            case 0: try old.dogs().map(\.name)
            case 1: try new.dogs().map(\.name)
            default: try KennelV2Device.dogs(in: kennel.serverStack).map(\.name)
            }
        }
        for step in script {
            switch step {
            case .create(let node):
                created += 1
                let name = "dog \(created)"
                switch node {
                case 0: try await old.addDog(name: name, weight: 1)
                case 1: try await new.addDog(name: name, weight: 1)
                default: try await KennelV2Device.addDog(to: kennel.serverStack, name: name, weight: 1)
                }
            case .rename(let node, let pick, let name):
                let known = try names(node)
                guard !known.isEmpty else { continue }
                let dog = known[pick % known.count]
                switch node {
                case 0: try await old.editDog(dog, nickname: "nick \(name)")
                case 1: try await new.editDog(dog, callName: "nick \(name)")
                default: try await KennelV2Device.editDog(dog, in: kennel.serverStack, callName: "nick \(name)")
                }
            case .weigh(let node, let pick, let weight):
                let known = try names(node)
                guard !known.isEmpty else { continue }
                let dog = known[pick % known.count]
                switch node {
                case 0: try await old.editDog(dog, weight: Int16(clamping: weight))
                case 1: try await new.editDog(dog, weight: weight)
                default: try await KennelV2Device.editDog(dog, in: kennel.serverStack, weight: weight)
                }
            case .visit(let node, let pick, let by):
                let known = try names(node)
                guard !known.isEmpty else { continue }
                let dog = known[pick % known.count]
                visits[dog, default: 0] += by
                switch node {
                case 0: try await old.editDog(dog, visits: by)
                case 1: try await new.editDog(dog, visits: by)
                default: try await KennelV2Device.editDog(dog, in: kennel.serverStack, visits: by)
                }
            case .age(let node, let pick, let age):
                guard node > 0 else { continue }   // V1 has no age
                let known = try names(node)
                guard !known.isEmpty else { continue }
                let dog = known[pick % known.count]
                if node == 1 { try await new.editDog(dog, age: age) } else { try await KennelV2Device.editDog(dog, in: kennel.serverStack, age: age) }
            case .sync(let node):
                if node == 0 { try await old.sync() } else if node == 1 { try await new.sync() }
            }
        }
        for _ in 0..<2 {
            try await old.sync()
            try await new.sync()
        }
        let server = try KennelV2Device.dogs(in: kennel.serverStack)
        #expect(try new.dogs() == server, "the V2 device differs from the server after \(script)")
        let oldDogs = try old.dogs()
        #expect(oldDogs.map(\.name) == server.map(\.name), "the V1 device's dogs differ after \(script)")
        for (dog, seen) in zip(server, oldDogs) {
            #expect(seen.nickname == dog.callName, "\(dog.name)'s nickname on V1 after \(script)")
            #expect(seen.visits == dog.visits, "\(dog.name)'s visits on V1 after \(script)")
            if let fits = Int16(exactly: dog.weight) { #expect(seen.weight == fits, "\(dog.name)'s weight on V1 after \(script)") }
            #expect(dog.visits == visits[dog.name, default: 0], "\(dog.name) lost or repeated a visit after \(script)")
        }
        await old.stack.close()
        await new.stack.close()
        await kennel.serverStack.close()
    }
}
