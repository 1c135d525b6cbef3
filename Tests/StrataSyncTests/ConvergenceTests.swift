import Foundation
import PropertyBased
import Strata
import StrataCloud
import StrataTestSupport
import Testing

/// Three devices and the server's own code make random creates, edits, counter increments,
/// deletes and relationship changes, online and offline, and sync in random orders. After a final
/// sync every node holds the same objects with the same values, and the conflicts went by the
/// rules: nothing deleted anywhere survives, and every counter holds every increment.
@Suite @MainActor struct ConvergenceTests {
    /// One step of a script, decoded from a random number (so scripts shrink as arrays do).
    enum Step: CustomStringConvertible {
        case create(node: Int, kind: Int)
        case rename(node: Int, pick: Int)
        case count(node: Int, pick: Int, by: Int)
        case toggle(node: Int, pick: Int)
        case delete(node: Int, pick: Int)
        case move(node: Int, card: Int, board: Int)
        case tag(node: Int, card: Int, tag: Int)
        case reorder(node: Int, board: Int)
        case sync(node: Int)
        case offline(node: Int)

        /// The server's own code is node 3; nodes 0 to 2 are devices.
        init(_ number: Int) {
            let node = number % 4
            let a = (number / 40) % 97
            let b = (number / 3_880) % 89
            switch (number / 4) % 10 {
            case 0: self = .create(node: node, kind: a % 3)
            case 1: self = .rename(node: node, pick: a)
            case 2: self = .count(node: node, pick: a, by: 1 + b % 5)
            case 3: self = .toggle(node: node, pick: a)
            case 4: self = .delete(node: node, pick: a)
            case 5: self = .move(node: node, card: a, board: b)
            case 6: self = .tag(node: node, card: a, tag: b)
            case 7: self = .reorder(node: node, board: a)
            case 8: self = .sync(node: node)
            default: self = .offline(node: node)
            }
        }

        var description: String {
            switch self {
            case .create(let node, let kind): return "n\(node) create \(["board", "card", "tag"][kind])"
            case .rename(let node, let pick): return "n\(node) rename #\(pick)"
            case .count(let node, let pick, let by): return "n\(node) views #\(pick) +\(by)"
            case .toggle(let node, let pick): return "n\(node) toggle card #\(pick)"
            case .delete(let node, let pick): return "n\(node) delete #\(pick)"
            case .move(let node, let card, let board): return "n\(node) move card #\(card) to board #\(board)"
            case .tag(let node, let card, let tag): return "n\(node) tag card #\(card) with #\(tag)"
            case .reorder(let node, let board): return "n\(node) reorder board #\(board)"
            case .sync(let node): return "n\(node) sync"
            case .offline(let node): return "n\(node) offline/online"
            }
        }
    }

    /// What the script did that the rules decide: the objects deleted anywhere, and each board's increments.
    struct Expectations {
        var deleted: Set<String> = []
        var increments: [String: Int64] = [:]
        var created = 0
    }

    @Test func everyNodeConvergesByTheRules() async throws {
        await propertyCheck(count: 40, input: Gen.int(in: 0...1_000_000_000).array(of: 10...70)) { numbers in
            do {
                try await Self.run(numbers.map(Step.init))
            } catch {
                Issue.record("the script \(numbers.map(Step.init)) failed: \(error)")
            }
        }
    }

    static func run(_ script: [Step]) async throws {
        let world = try await SyncWorld.make()
        var devices: [(stack: DataStack, store: CloudStore)] = []
        var transports: [InProcessTransport] = []
        for _ in 0..<3 {
            let transport = InProcessTransport(server: world.server)
            let stack = DataStack(Planner.schemaHistory)
            let store = CloudStore(fileURL: TestFolders.url("converge").appendingPathExtension("sqlite"), server: URL(string: "http://sync.test/sync")!,
                                   contentName: "Planner", account: .bearer("t-alice"), cloudStorageOptions: [.syncOnlyWhenAsked], transport: transport)
            try await stack.addStorage(store)
            devices.append((stack, store))
            transports.append(transport)
        }
        let stacks = devices.map(\.stack) + [world.serverStack]
        var expected = Expectations()
        for step in script {
            try await perform(step, stacks: stacks, devices: devices, transports: transports, expected: &expected)
        }
        for transport in transports { transport.isOffline = false }
        for _ in 0..<2 {
            for device in devices { try await device.store.sync() }
        }
        let server = try await dump(world.serverStack)
        for (index, device) in devices.enumerated() {
            let seen = try await dump(device.stack)
            #expect(seen == server, "device \(index) holds \(seen), the server \(server), after \(script)")
        }
        for name in server.names where expected.deleted.contains(name) {
            Issue.record("\(name) was deleted, yet the server holds it, after \(script)")
        }
        for (board, views) in server.views {
            #expect(views == expected.increments[board, default: 0], "\(board)'s views after \(script)")
        }
    }

    /// The objects of one node, each by the name it was created with.
    struct Dump: Equatable, CustomStringConvertible {
        var boards: [String] = []
        var cards: [String] = []
        var tags: [String] = []
        var views: [String: Int64] = [:]
        var names: Set<String> = []

        var description: String { "boards \(boards) cards \(cards) tags \(tags)" }
    }

    /// The name an object was created with (`b3` of `b3.renamed-n1`).
    nonisolated static func identity(_ title: String) -> String {
        String(title.prefix { $0 != "." })
    }

    static func dump(_ stack: DataStack) async throws -> Dump {
        try await stack.perform { transaction in
            var dump = Dump()
            for board in try transaction.fetchAll(From<Board>()) {
                dump.boards.append("\(board.title) views=\(board.views) cards=\(board.cards.map { identity($0.title) })")
                dump.views[identity(board.title)] = board.views
                dump.names.insert(identity(board.title))
            }
            for card in try transaction.fetchAll(From<Card>()) {
                dump.cards.append("\(card.title) done=\(card.done) board=\(card.board.map { identity($0.title) } ?? "-") tags=\(card.tags.map { identity($0.name) }.sorted())")
                dump.names.insert(identity(card.title))
            }
            for tag in try transaction.fetchAll(From<Tag>()) {
                dump.tags.append(tag.name)
                dump.names.insert(identity(tag.name))
            }
            dump.boards.sort()
            dump.cards.sort()
            dump.tags.sort()
            return dump
        }
    }

    static func perform(_ step: Step, stacks: [DataStack], devices: [(stack: DataStack, store: CloudStore)], transports: [InProcessTransport],
                        expected: inout Expectations) async throws {
        switch step {
        case .sync(let node):
            guard node < 3 else { return }
            // Offline, a sync fails and changes nothing: the commits wait.
            do { try await devices[node].store.sync() } catch where transports[node].isOffline {}
        case .offline(let node):
            guard node < 3 else { return }
            transports[node].isOffline.toggle()
        case .create(let node, let kind):
            expected.created += 1
            let name = ["b", "c", "t"][kind] + "\(expected.created)"
            try await stacks[node].perform { transaction in
                switch kind {
                case 0: transaction.create(Into<Board>()).title = name
                case 1: transaction.create(Into<Card>()).title = name
                default: transaction.create(Into<Tag>()).name = name
                }
            }
        case .rename(let node, let pick):
            try await stacks[node].perform { transaction in
                let objects = try Self.all(transaction)
                guard !objects.isEmpty else { return }
                switch objects[pick % objects.count] {
                case let board as Board: board.title = identity(board.title) + ".n\(node)-\(pick)"
                case let card as Card: card.title = identity(card.title) + ".n\(node)-\(pick)"
                case let tag as Tag: tag.name = identity(tag.name) + ".n\(node)-\(pick)"
                default: break
                }
            }
        case .count(let node, let pick, let by):
            let counted = try await stacks[node].perform { transaction -> String? in
                let boards = try transaction.fetchAll(From<Board>(), OrderBy<Board>(.ascending(\.title)))
                guard !boards.isEmpty else { return nil }
                let board = boards[pick % boards.count]
                board.views += Int64(by)
                return identity(board.title)
            }
            if let counted { expected.increments[counted, default: 0] += Int64(by) }
        case .toggle(let node, let pick):
            try await stacks[node].perform { transaction in
                let cards = try transaction.fetchAll(From<Card>(), OrderBy<Card>(.ascending(\.title)))
                guard !cards.isEmpty else { return }
                cards[pick % cards.count].done.toggle()
            }
        case .delete(let node, let pick):
            let deleted = try await stacks[node].perform { transaction -> [String] in
                let objects = try Self.all(transaction)
                guard !objects.isEmpty else { return [] }
                let object = objects[pick % objects.count]
                var names = [Self.name(of: object)]
                // A board's cards go with it (deleteRule: cascade).
                if let board = object as? Board { names += board.cards.map { identity($0.title) } }
                transaction.delete(object)
                return names
            }
            expected.deleted.formUnion(deleted)
        case .move(let node, let card, let board):
            try await stacks[node].perform { transaction in
                let cards = try transaction.fetchAll(From<Card>(), OrderBy<Card>(.ascending(\.title)))
                let boards = try transaction.fetchAll(From<Board>(), OrderBy<Board>(.ascending(\.title)))
                guard !cards.isEmpty else { return }
                cards[card % cards.count].board = boards.isEmpty || board % 4 == 0 ? nil : boards[board % boards.count]
            }
        case .tag(let node, let card, let tag):
            try await stacks[node].perform { transaction in
                let cards = try transaction.fetchAll(From<Card>(), OrderBy<Card>(.ascending(\.title)))
                let tags = try transaction.fetchAll(From<Tag>(), OrderBy<Tag>(.ascending(\.name)))
                guard !cards.isEmpty, !tags.isEmpty else { return }
                let target = cards[card % cards.count]
                let chosen = tags[tag % tags.count]
                if target.tags.contains(chosen) { target.tags.remove(chosen) } else { target.tags.insert(chosen) }
            }
        case .reorder(let node, let board):
            try await stacks[node].perform { transaction in
                let boards = try transaction.fetchAll(From<Board>(), OrderBy<Board>(.ascending(\.title)))
                guard !boards.isEmpty else { return }
                let chosen = boards[board % boards.count]
                let cards = chosen.cards
                guard cards.count > 1 else { return }
                chosen.cards = Array(cards.dropFirst()) + [cards[0]]
            }
        }
    }

    /// Every board, card and tag of a transaction, in a fixed order.
    nonisolated static func all(_ transaction: AsynchronousDataTransaction) throws -> [StrataObject] {
        try transaction.fetchAll(From<Board>(), OrderBy<Board>(.ascending(\.title))) as [StrataObject]
            + transaction.fetchAll(From<Card>(), OrderBy<Card>(.ascending(\.title)))
            + transaction.fetchAll(From<Tag>(), OrderBy<Tag>(.ascending(\.name)))
    }

    nonisolated static func name(of object: StrataObject) -> String {
        switch object {
        case let board as Board: return identity(board.title)
        case let card as Card: return identity(card.title)
        case let tag as Tag: return identity(tag.name)
        default: return ""
        }
    }
}
