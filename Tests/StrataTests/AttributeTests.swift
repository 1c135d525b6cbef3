import Foundation
import Testing
@testable import Strata

@Suite("Attributes of every type")
struct AttributeTests {
    @MainActor
    @Test(arguments: [false, true])
    func everyTypeRoundTrips(onDisk: Bool) async throws {
        let stack = DataStack(Zoo.schemaHistory)
        if onDisk {
            try stack.addStorageAndWait(SQLiteStore(fileURL: temporaryStoreURL()))
        } else {
            try stack.addStorageAndWait(InMemoryStore())
        }
        let token = UUID()
        let created = Date(timeIntervalSince1970: 1_700_000_000.25)
        try await stack.perform { transaction in
            let person = transaction.create(Into<Person>())
            person.name = "Zoë \"Z\" O'Neil 🐶"
            person.age = -12
            person.nickname = nil
            person.balance = Decimal(string: "12345678901234.5678")!
            person.createdAt = created
            person.token = token
            person.homepage = URL(string: "https://example.com/a?b=c")
            person.photo = Data([0, 1, 2, 255])
            person.isActive = false
            person.score = 3.25
            person.ratio = 0.5
            person.visits = Int.max
            person.settings = Settings(theme: "dark", fontSize: 14)
            person.email = "zoe@example.com"
            person.mood = .playful
        }
        let person = try #require(try stack.fetchOne(From<Person>()))
        #expect(person.name == "Zoë \"Z\" O'Neil 🐶")
        #expect(person.age == -12)
        #expect(person.nickname == nil)
        #expect(person.balance == Decimal(string: "12345678901234.5678")!)
        #expect(person.createdAt == created)
        #expect(person.token == token)
        #expect(person.homepage == URL(string: "https://example.com/a?b=c"))
        #expect(person.photo == Data([0, 1, 2, 255]))
        #expect(person.isActive == false)
        #expect(person.score == 3.25)
        #expect(person.ratio == 0.5)
        #expect(person.visits == Int.max)
        #expect(person.settings == Settings(theme: "dark", fontSize: 14))
        #expect(person.email == "zoe@example.com")
        #expect(person.mood == .playful)
    }

    @MainActor
    @Test func defaultsAndInitialValues() async throws {
        let stack = try makeStack()
        let before = Date()
        try await stack.perform { transaction in
            let first = transaction.create(Into<Person>())
            first.name = "a"
            let second = transaction.create(Into<Person>())
            second.name = "b"
        }
        let people = try stack.fetchAll(From<Person>().orderBy(.ascending(\.name)))
        #expect(people.map(\.isActive) == [true, true])
        #expect(people.map(\.ratio) == [1, 1])
        #expect(people.allSatisfy { $0.createdAt >= before.addingTimeInterval(-1) })
        #expect(people[0].token != people[1].token)
    }

    @MainActor
    @Test func snapshotsAreSendableValues() async throws {
        let stack = try makeStack()
        try await addPeople(["Ann"], to: stack)
        let snapshot = try #require(try stack.fetchOne(From<Person>())).snapshot
        let copy = await Task.detached { snapshot }.value
        #expect(copy.name == "Ann")
        let data = try JSONEncoder().encode(copy)
        #expect(try JSONDecoder().decode(Person.Snapshot.self, from: data) == snapshot)
    }
}
