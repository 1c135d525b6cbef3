import Foundation
import Testing
@testable import Strata

/// The last differences from CoreStore, each tested the way CoreStore's own tests state it.
@MainActor
@Suite("CoreStore's semantics")
struct CoreStoreSemanticsTests {
    // MARK: From naming several configurations

    /// A stack of `splitHistory` (People: Person; Pets: animals; Backup: Person; Default: all),
    /// with one dog in Default and one in Pets, and a person in People and in Default.
    private func splitStack() async throws -> DataStack {
        let stack = DataStack(splitHistory)
        for configuration in ["Default", "People", "Pets"] { try stack.addStorageAndWait(InMemoryStore(configuration: configuration)) }
        try await stack.perform { transaction in
            transaction.create(Into<Dog>("Default")).species = "default dog"
            transaction.create(Into<Dog>("Pets")).species = "pets dog"
            transaction.create(Into<Person>("People")).name = "Ann"
            transaction.create(Into<Person>("Default")).name = "Bob"
        }
        return stack
    }

    /// CoreStore: `From<TestEntity1>("Default", "Config2")` with TestEntity1 only in Default
    /// returns Default's objects, from the stack and in transactions alike.
    @Test func aConfigurationThatDoesNotHoldTheEntityIsSkipped() async throws {
        let stack = try await splitStack()
        let from = From<Dog>("Default", "People")
        #expect(try stack.fetchAll(from).map(\.species) == ["default dog"])
        #expect(try stack.fetchOne(from)?.species == "default dog")
        #expect(try stack.fetchCount(from) == 1)
        #expect(try stack.fetchObjectIDs(from).count == 1)
        let inTransaction = try await stack.perform { transaction in
            (try transaction.fetchAll(from).map(\.species), try transaction.fetchCount(from))
        }
        #expect(inTransaction.0 == ["default dog"] && inTransaction.1 == 1)
        let read = try await stack.read { try $0.fetchCount(From<Dog>("People", "Pets")) }
        #expect(read == 1)
    }

    /// CoreStore's `persistentStoreNotFound`: none of the configurations named holds the entity.
    @Test func noConfigurationHoldingTheEntityIsTheFirstOnesError() async throws {
        let stack = try await splitStack()
        #expect(throws: StrataError.notInConfiguration(entity: "Dog", configuration: "People", holding: ["Pets"])) {
            try stack.fetchAll(From<Dog>("People", "Backup"))
        }
        // A name the model does not have is a typo, never skipped.
        #expect(throws: StrataError.unknownConfiguration("Nowhere", available: ["Default", "Backup", "People", "Pets"])) {
            try stack.fetchAll(From<Dog>("Default", "Nowhere"))
        }
    }

    // MARK: nil names the default configuration

    /// CoreStore: `From<T>(nil)` reads the default configuration's store only; `From<T>()` reads all.
    @Test func fromNilReadsTheDefaultConfigurationOnly() async throws {
        let stack = try await splitStack()
        #expect(try stack.fetchAll(From<Dog>(nil)).map(\.species) == ["default dog"])
        #expect(try stack.fetchCount(From<Dog>()) == 2)
        #expect(From<Dog>(nil).configurations == ["Default"])
        #expect(From<Dog>(nil) != From<Dog>())
        #expect(From<Dog>(Dog.self, nil).configurations == ["Default"] && From<Dog>(Dog.self).configurations.isEmpty)
    }

    /// CoreStore: `Into<T>(nil)` inserts into the default configuration, with no inference;
    /// `Into<T>()` infers the one storage that holds `T`.
    @Test func intoNilInsertsIntoTheDefaultConfiguration() async throws {
        let stack = try await splitStack()
        try await stack.perform { transaction in transaction.create(Into<Person>(nil)).name = "Cy" }
        #expect(try stack.fetchAll(From<Person>("Default").orderBy(.ascending(\.name))).map(\.name) == ["Bob", "Cy"])
        #expect(Into<Person>(nil).configuration == "Default" && !Into<Person>(nil).inferStoreIfPossible)
        #expect(Into<Person>().configuration == nil && Into<Person>().inferStoreIfPossible)
        // `Into<Person>()` must infer, and two storages hold Person.
        await #expect(throws: StrataError.ambiguousConfiguration(entity: "Person", configurations: ["Default", "People"])) {
            try await stack.perform { transaction in transaction.create(Into<Person>()).name = "Dee" }
        }
    }

    // MARK: Query conversions

    /// CoreStore's QueryTests fixture: five objects numbered 1 to 5, each with a number, a
    /// decimal, a string, data and a date of its number, and a boolean true for odd numbers.
    private func numberedStack() async throws -> DataStack {
        let stack = try makeStack()
        try await stack.perform { transaction in
            for number in 1...5 {
                let person = transaction.create(Into<Person>())
                person.age = Int16(number)
                person.balance = Decimal(number)
                person.name = "nil:TestEntity1:\(number)"
                person.photo = Data("nil:TestEntity1:\(number)".utf8)
                person.createdAt = Date(timeIntervalSince1970: 946_684_800 + Double(number - 1) * 86_400)
                person.isActive = number % 2 == 1
            }
        }
        return stack
    }

    /// Every cell of CoreStore's average, count, sum, maximum and minimum tests (over numbers
    /// greater than 1: 2, 3, 4, 5), as `queryValue` converts them.
    @Test func aggregatesConvertAsCoreStoresTablesSay() async throws {
        let stack = try await numberedStack()
        let from = From<Person>().where(\.age > 1)
        func value<R: QueryableAttributeType>(_ type: R.Type, _ term: SelectTerm<Person>) throws -> R? {
            try stack.queryValue(from.select(type, term))
        }
        let day = { (number: Int) in Date(timeIntervalSince1970: 946_684_800 + Double(number - 1) * 86_400) }

        // average
        #expect(try value(Bool.self, .average(\.isActive)) == true)
        #expect(try value(Int8.self, .average(\.age)) == 3)
        #expect(try value(Int16.self, .average(\.age)) == 3)
        #expect(try value(Int32.self, .average(\.age)) == 3)
        #expect(try value(Int64.self, .average(\.age)) == 3)
        #expect(try value(Int.self, .average(\.age)) == 3)
        #expect(try value(Double.self, .average(\.age)) == 3.5)
        #expect(try value(Float.self, .average(\.age)) == 3.5)
        #expect(try value(Decimal.self, .average(\.balance)) == Decimal(string: "3.5"))
        #expect(try value(String.self, .average(\.name)) == nil)
        #expect(try value(Data.self, .average(\.photo)) == nil)
        #expect(try value(Date.self, .average(\.createdAt)) == nil)

        // count
        #expect(try value(Bool.self, .count(\.isActive)) == true)
        #expect(try value(Int8.self, .count(\.age)) == 4)
        #expect(try value(Int.self, .count(\.age)) == 4)
        #expect(try value(Double.self, .count(\.age)) == 4)
        #expect(try value(Float.self, .count(\.age)) == 4)
        #expect(try value(Decimal.self, .count(\.balance)) == nil)
        #expect(try value(String.self, .count(\.name)) == nil)
        #expect(try value(Data.self, .count(\.photo)) == nil)
        #expect(try value(Date.self, .count(\.createdAt)) == nil)

        // sum
        #expect(try value(Bool.self, .sum(\.isActive)) == true)
        #expect(try value(Int8.self, .sum(\.age)) == 14)
        #expect(try value(Int.self, .sum(\.age)) == 14)
        #expect(try value(Double.self, .sum(\.age)) == 14)
        #expect(try value(Float.self, .sum(\.age)) == 14)
        #expect(try value(Decimal.self, .sum(\.balance)) == 14)
        #expect(try value(String.self, .sum(\.name)) == nil)
        #expect(try value(Date.self, .sum(\.createdAt)) == nil)

        // maximum
        #expect(try value(Bool.self, .maximum(\.isActive)) == true)
        #expect(try value(Int8.self, .maximum(\.age)) == 5)
        #expect(try value(Double.self, .maximum(\.age)) == 5)
        #expect(try value(Decimal.self, .maximum(\.balance)) == 5)
        #expect(try value(String.self, .maximum(\.name)) == "nil:TestEntity1:5")
        #expect(try value(Data.self, .maximum(\.photo)) == Data("nil:TestEntity1:5".utf8))
        #expect(try value(Date.self, .maximum(\.createdAt)) == day(5))

        // minimum
        #expect(try value(Bool.self, .minimum(\.isActive)) == false)
        #expect(try value(Int8.self, .minimum(\.age)) == 2)
        #expect(try value(Float.self, .minimum(\.age)) == 2)
        #expect(try value(Decimal.self, .minimum(\.balance)) == 2)
        #expect(try value(String.self, .minimum(\.name)) == "nil:TestEntity1:2")
        #expect(try value(Data.self, .minimum(\.photo)) == Data("nil:TestEntity1:2".utf8))
        #expect(try value(Date.self, .minimum(\.createdAt)) == day(2))
    }

    /// CoreStore's aggregates test: `sum(testBoolean)` is the number of true values, 3.
    @Test func theSumOfABoolCountsItsTrueValues() async throws {
        let stack = try await numberedStack()
        let rows = try stack.queryAttributes(From<Person>().select(.sum(\.isActive), .count(\.age), .maximum(\.age), .minimum(\.age)))
        #expect(rows.count == 1)
        #expect(rows.first?["sum(isActive)"] as? Int == 3)
        #expect(rows.first?["count(age)"] as? Int == 5)
        #expect(rows.first?["max(age)"] as? Int16 == 5 && rows.first?["min(age)"] as? Int16 == 1)
        #expect(try stack.queryValue(From<Person>().select(Int.self, .sum(\.isActive))) == 3)
    }

    // MARK: Quantified key paths

    @Test func quantifiedPathsDescribeThemselvesAsCoreStoreDoes() {
        #expect((\Dog.master ~ \Person.pets).any().description == "ANY master.pets")
        #expect((\Dog.master ~ \Person.pets).all().description == "ALL master.pets")
        #expect((\Person.pets ~ \Dog.nickname).none().description == "NONE pets.nickname")
        #expect((\Person.pets).any().description == "ANY pets")
    }

    @Test func quantifiedPathsCompare() async throws {
        let stack = try makeStack()
        try await stack.perform { transaction in
            let ann = transaction.create(Into<Person>())
            ann.name = "Ann"
            let bob = transaction.create(Into<Person>())
            bob.name = "Bob"
            for (nickname, master) in [("Rex", ann), ("Fido", ann), ("Spot", bob)] {
                let dog = transaction.create(Into<Dog>())
                dog.species = "dog"
                dog.nickname = nickname
                dog.master = master
            }
        }
        func names(_ condition: Where<Person>) throws -> [String] {
            try stack.fetchAll(From<Person>().where(condition).orderBy(.ascending(\.name))).map(\.name)
        }
        #expect(try names((\Person.pets ~ \Dog.nickname).any() == "Rex") == ["Ann"])
        #expect(try names((\Person.pets ~ \Dog.nickname).all() != "Rex") == ["Bob"])
        #expect(try names((\Person.pets ~ \Dog.nickname).none() == "Spot") == ["Ann"])
        #expect(try names((\Person.pets ~ \Dog.nickname).any() ~= ["Spot", "Fido"]) == ["Ann", "Bob"])
        let rex = try #require(try stack.fetchOne(From<Dog>().where(\.nickname == "Rex")))
        #expect(try names((\Person.pets).any() == rex) == ["Ann"])
        #expect(try names((\Person.pets).none() == rex.objectID(as: Dog.self)) == ["Bob"])
        // Through a to-one relationship: the dogs whose master has a dog called Fido.
        let dogs = try stack.fetchAll(From<Dog>().where((\Dog.master ~ \Person.pets ~ \Dog.nickname).any() == "Fido")
            .orderBy(.ascending(\.nickname)))
        #expect(dogs.map(\.nickname) == ["Fido", "Rex"])
    }

    // MARK: VersionLock

    /// CoreStore prints a lock as the dictionary literal it is written as in code, one entity a line.
    @Test func aVersionLockDescribesItselfAsADictionaryLiteral() {
        let lock: VersionLock = ["Dog": [0x1b59d511019695cf, 0xdeb97e86c5eff179, 0x01cfd80745646cb3, 0x4ff99416175b5b9a], "Animal": [1, 2, 3, 15]]
        #expect(lock.description == """
            [
                "Animal": [0x1, 0x2, 0x3, 0xf],
                "Dog": [0x1b59d511019695cf, 0xdeb97e86c5eff179, 0x1cfd80745646cb3, 0x4ff99416175b5b9a]
            ]
            """)
        #expect(VersionLock(["Dog": [0, UInt64.max]]).description == "[\n    \"Dog\": [0x0, 0xffffffffffffffff]\n]")
        // The one-line layout with zero-padded words, which earlier versions printed, still reads.
        #expect(VersionLock("[\"Animal\": [0x0000000000000001, 0x0000000000000002, 0x0000000000000003, 0x000000000000000f], "
                + "\"Dog\": [0x1b59d511019695cf, 0xdeb97e86c5eff179, 0x01cfd80745646cb3, 0x4ff99416175b5b9a]]") == lock)
        #expect(lock.metadataText == "Animal:1,2,3,f;Dog:1b59d511019695cf,deb97e86c5eff179,1cfd80745646cb3,4ff99416175b5b9a")
        #expect(VersionLock(lock.description) == lock)
        #expect(VersionLock(lock.metadataText) == lock)
        #expect(VersionLock([:]).description == "[:]" && VersionLock("[:]") == VersionLock([:]))
        #expect(VersionLock("[\"Dog\": [0xzz]]") == nil)
    }
}
