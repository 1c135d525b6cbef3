import Foundation
import StrataTestSupport
import Testing
@testable import Strata

@Suite("Relationships")
@MainActor
struct RelationshipTests {
    let stack: DataStack
    let people: [ObjectID<Person>]

    init() async throws {
        stack = try makeStack()
        people = try await addPeople(["Ann", "Bob", "Cid", "Dee", "Eve"], to: stack)
    }

    private func names(_ people: [Person]) -> [String] { people.map(\.name) }

    @Test func toOneUpdatesItsToManyInverse() async throws {
        let seen = try await stack.perform { [people] transaction in
            let ann = try #require(transaction.edit(people[0]))
            let bob = try #require(transaction.edit(people[1]))
            let rex = transaction.create(Into<Dog>())
            rex.nickname = "Rex"
            rex.master = ann
            let before = ann.pets.map(\.nickname)
            rex.master = bob
            return (before, ann.pets.count, bob.pets.map(\.nickname), rex.master?.name)
        }
        #expect(seen.0 == ["Rex"])
        #expect(seen.1 == 0)
        #expect(seen.2 == ["Rex"])
        #expect(seen.3 == "Bob")
        let bob = try #require(stack.fetchExisting(people[1]))
        #expect(bob.pets.map(\.nickname) == ["Rex"])
        #expect(try stack.fetchOne(From<Dog>())?.master === bob)
    }

    @Test func toManyUpdatesEveryToOneInverse() async throws {
        try await stack.perform { [people] transaction in
            let ann = try #require(transaction.edit(people[0]))
            let bob = try #require(transaction.edit(people[1]))
            let dogs = (1...3).map { index -> Dog in
                let dog = transaction.create(Into<Dog>())
                dog.nickname = "d\(index)"
                return dog
            }
            ann.pets = Set(dogs)
            bob.pets = [dogs[2]]
        }
        let ann = try #require(stack.fetchExisting(people[0]))
        #expect(Set(ann.pets.compactMap(\.nickname)) == ["d1", "d2"])
        let masters = try stack.fetchAll(From<Dog>().orderBy(.ascending(\.nickname))).map { $0.master?.name }
        #expect(masters == ["Ann", "Ann", "Bob"])
        #expect(try stack.fetchAll(From<Dog>().where(\.master?.name == "Ann")).count == 2)
        #expect(try stack.fetchCount(From<Dog>().where(\.master?.age > 15)) == 1)
    }

    @Test func orderedToManyKeepsItsOrder() async throws {
        try await stack.perform { [people] transaction in
            let ann = try #require(transaction.edit(people[0]))
            ann.cats = ["c1", "c2", "c3"].map { name in
                let cat = transaction.create(Into<Cat>())
                cat.species = name
                return cat
            }
        }
        #expect(stack.fetchExisting(people[0])?.cats.map(\.species) == ["c1", "c2", "c3"])
        try await stack.perform { [people] transaction in
            let ann = try #require(transaction.edit(people[0]))
            let cats = ann.cats
            ann.cats = [cats[2], cats[0], cats[1]]
        }
        #expect(stack.fetchExisting(people[0])?.cats.map(\.species) == ["c3", "c1", "c2"])
        let fresh = try await stack.read { [people] reader in reader.fetchExisting(people[0])?.cats.map(\.species) }
        #expect(fresh == ["c3", "c1", "c2"])
    }

    @Test func manyToManySelfInverse() async throws {
        try await stack.perform { [people] transaction in
            let ann = try #require(transaction.edit(people[0]))
            ann.friends = [try #require(transaction.edit(people[1])), try #require(transaction.edit(people[2]))]
        }
        let read = try await stack.read { [people] reader in
            people.prefix(3).map { reader.fetchExisting($0)?.friends.map(\.name) ?? [] }
        }
        #expect(read == [["Bob", "Cid"], ["Ann"], ["Ann"]])
        try await stack.perform { [people] transaction in
            let ann = try #require(transaction.edit(people[0]))
            ann.friends = [try #require(transaction.edit(people[2]))]
        }
        #expect(stack.fetchExisting(people[1])?.friends.isEmpty == true)
        #expect(stack.fetchExisting(people[0])?.friends.map(\.name) == ["Cid"])
    }

    @Test func oneToOneKeepsBothSidesPaired() async throws {
        let result = try await stack.perform { [people] transaction in
            let ann = try #require(transaction.edit(people[0]))
            let bob = try #require(transaction.edit(people[1]))
            let cid = try #require(transaction.edit(people[2]))
            ann.spouse = bob
            let first = bob.spouse?.name
            ann.spouse = cid
            return (first, bob.spouse?.name, cid.spouse?.name)
        }
        #expect(result.0 == "Ann")
        #expect(result.1 == nil)
        #expect(result.2 == "Ann")
        #expect(stack.fetchExisting(people[2])?.spouse?.name == "Ann")
    }

    @Test func deleteRulesCascadeAndNullify() async throws {
        try await stack.perform { [people] transaction in
            let ann = try #require(transaction.edit(people[0]))
            let bob = try #require(transaction.edit(people[1]))
            ann.pets = [transaction.create(Into<Dog>()), transaction.create(Into<Dog>())]
            ann.friends = [bob]
        }
        #expect(try stack.fetchCount(From<Dog>()) == 2)
        try await stack.perform { [people] transaction in
            transaction.delete(transaction.edit(people[1]))
        }
        #expect(stack.fetchExisting(people[0])?.friends.isEmpty == true)
        try await stack.perform { [people] transaction in
            transaction.delete(transaction.edit(people[0]))
        }
        #expect(try stack.fetchCount(From<Dog>()) == 0)
        #expect(try stack.fetchCount(From<Person>()) == 3)
    }

    @Test func denyRulesRefuseAndChangeNothing() async throws {
        try await stack.perform { [people] transaction in
            let ann = try #require(transaction.edit(people[0]))
            ann.cats = [transaction.create(Into<Cat>()), transaction.create(Into<Cat>())]
        }
        await #expect(throws: StrataError.deleteDenied(entity: "Person", relationship: "cats", count: 2)) {
            try await stack.perform { [people] transaction in
                transaction.delete(transaction.edit(people[0]))
            }
        }
        #expect(try stack.fetchCount(From<Person>()) == 5)
        #expect(stack.fetchExisting(people[0])?.cats.count == 2)
        try await stack.perform { [people] transaction in
            let ann = try #require(transaction.edit(people[0]))
            transaction.delete(ann.cats)
            transaction.delete(ann)
        }
        #expect(try stack.fetchCount(From<Person>()) == 4)
    }

    @Test func countsAreChecked() async throws {
        await #expect(throws: StrataError.relationshipCount(entity: "Person", relationship: "friends", count: 4, minimum: nil, maximum: 3)) {
            try await stack.perform { [people] transaction in
                let ann = try #require(transaction.edit(people[0]))
                ann.friends = people.dropFirst().compactMap { transaction.edit($0) }
            }
        }
        #expect(stack.fetchExisting(people[0])?.friends.isEmpty == true)
    }

    @Test(.sqliteOnly("a trap, checked in a child process (which would start a server of its own); it comes before any SQL"))
    func relatingObjectsOfTwoContextsTraps() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let stack = try makeStack()
            let ids = try await addPeople(["Ann"], to: stack)
            try stack.perform(synchronous: { transaction in
                let dog = transaction.create(Into<Dog>())
                let other = stack.beginUnsafe().edit(ids[0])
                dog.master = other
            })
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("Strata: 'Dog.master' was given a Person from another context; relate objects of one transaction: transaction.edit(person)"))
    }
}

@Suite("Prefetching")
@MainActor
struct PrefetchTests {
    @Test func prefetchLoadsEveryKindOfRelationshipUpFront() async throws {
        let stack = try makeStack()
        let ids = try await addPeople((0..<600).map { "p\($0)" }, to: stack)
        try await stack.perform { transaction in
            let people: [Person] = transaction.fetchExisting(ids)
            for (index, person) in people.enumerated() {
                person.cats = (0..<2).map { number in
                    let cat = transaction.create(Into<Cat>())
                    cat.species = "cat \(index)-\(number)"
                    return cat
                }
                person.pets = [transaction.create(Into<Dog>())]
                if index > 0 { person.friends = [people[index - 1]] }
            }
        }
        let people = try stack.fetchAll(From<Person>().orderBy(.ascending(\.age)).prefetch(\.cats, \.pets, \.friends))
        #expect(people.count == 600)
        #expect(people.allSatisfy { $0.toManyKeys?.count == 3 })
        #expect(people[5].cats.map(\.species) == ["cat 5-0", "cat 5-1"])
        let dogs = try stack.fetchAll(From<Dog>().prefetch(\.master))
        #expect(dogs.count == 600)
        #expect(dogs.allSatisfy { $0.master != nil })
        let read = try await stack.read { reader in
            try reader.fetchAll(From<Person>().where(\.name == "p3").prefetch(\.friends)).first?.friends.map(\.name)
        }
        #expect(read == ["p2", "p4"])
    }

    @Test func onlyRelationshipsCanBePrefetched() throws {
        let stack = try makeStack()
        #expect(throws: StrataError.invalidQuery("'Person.name' is not a relationship, so it cannot be prefetched")) {
            try stack.perform(synchronous: { transaction in try transaction.fetchAll(From<Person>().prefetch(\.name)) })
        }
    }
}
