import Foundation
import Testing
@testable import Strata

/// A deterministic generator, so a failing seed can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

/// The promise of list monitors, over random commits: each update's change set, applied to the
/// list before, gives the list after; and that list is what a fresh fetch finds, in the same order.
@MainActor
@Suite("List monitor properties", .timeLimit(.minutes(5)))
struct ListMonitorPropertyTests {
    /// Names that test SQLite's byte order against Swift's: case, accents composed and not.
    nonisolated static let names = ["ann", "Ann", "bob", "Bob", "é", "e\u{301}", "zoë", "", "a b", "Ça"]

    /// One monitored fetch, the list its consumer has built from updates, and its updates.
    @MainActor
    struct Watched {
        let monitor: ListMonitor<Person>
        let remake: @MainActor () throws -> ListMonitor<Person>
        var list: PlainList<Person>
        let updates: MonitorEvents<ListUpdate<Person>>

        init(_ make: @escaping @MainActor () throws -> ListMonitor<Person>) throws {
            monitor = try make()
            remake = make
            list = PlainList(monitor.snapshot)
            updates = monitor.updates
        }

        /// Applies every pending update, checking each, then compares with a fresh monitor.
        mutating func check(_ step: String) async throws {
            while updates.buffer.pendingCount > 0 {
                let update = try #require(try await updates.buffer.next())
                let applied = list.applying(update.changes)
                let after = PlainList(update.snapshot)
                #expect(applied == after, "\(step): \(update.changes) did not turn \(list) into \(after)")
                list = after
            }
            let current = PlainList(monitor.snapshot)
            let fresh = PlainList(try remake().snapshot)
            #expect(list == current, "\(step): the consumer's list is not the monitor's")
            #expect(list == fresh, "\(step): the monitor's list \(list) is not what a fetch finds: \(fresh)")
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func changeSetsTurnEachListIntoTheNext(seed: UInt64) async throws {
        var random = SplitMix(state: seed)
        let url = temporaryStoreURL()
        let stack = DataStack(Zoo.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: url))
        let other = DataStack(Zoo.schemaHistory)
        try other.addStorageAndWait(SQLiteStore(fileURL: url))
        var watched = [
            try Watched { try stack.monitorList(From<Person>().where(\.age < 60).orderBy(.ascending(\.age), .descending(\.name))) },
            try Watched { try stack.monitorSectionedList(From<Person>().sectionBy(\.age).orderBy(.ascending(\.name))) },
            try Watched { try stack.monitorSectionedList(From<Person>().sectionBy(\.spouse?.name).orderBy(.descending(\.visits))) },
            try Watched { try stack.monitorList(From<Person>().orderBy(.ascending(\.name)).tweak { $0.limit = 5; $0.offset = 1 }) },
            try Watched { try stack.monitorList(From<Person>().where(.contains(\.name, "a", caseInsensitive: true)).orderBy(.descending(\.score))) },
        ]
        for step in 0..<60 {
            let choice = Int.random(in: 0..<10, using: &random)
            let values = (0..<6).map { _ in Int.random(in: 0..<1_000, using: &random) }
            let writer = choice == 9 ? other : stack
            try await writer.perform { transaction in
                let people = try transaction.fetchAll(From<Person>().orderBy(.ascending(\.name)))
                func pick(_ value: Int) -> Person? { people.isEmpty ? nil : people[value % people.count] }
                switch choice {
                case 0, 1, 2, 9:
                    for offset in 0..<(1 + values[0] % 3) {
                        let person = transaction.create(Into<Person>())
                        person.name = Self.names[(values[1] + offset) % Self.names.count]
                        person.age = Int16((values[2] + offset * 3) % 8 * 10)
                        person.score = Double(values[3] % 5)
                        person.spouse = pick(values[4] + offset)
                    }
                case 3, 4:
                    pick(values[0])?.age = Int16(values[1] % 8 * 10)
                    pick(values[2])?.name = Self.names[values[3] % Self.names.count]
                case 5:
                    pick(values[0])?.visits = values[1]
                    pick(values[2])?.score = Double(values[3] % 5)
                case 6:
                    pick(values[0])?.spouse = pick(values[1])
                    pick(values[2])?.name = Self.names[values[3] % Self.names.count]
                default:
                    if let person = pick(values[0]) { transaction.delete(person) }
                }
            }
            if writer === other {
                // This stack sees the other's commit when it next reads after its own commit.
                try await stack.perform { transaction in transaction.create(Into<Dog>()).species = "dog" }
            }
            for index in watched.indices { try await watched[index].check("seed \(seed) step \(step) monitor \(index)") }
        }
        #expect(watched[1].monitor.numberOfObjects > 0)
    }
}
