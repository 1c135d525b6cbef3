import Foundation
@testable import Strata
import Testing

/// Generated classes name a to-one relationship's destination only through the relationship's key
/// path: the runtime reads the class from the path's value type.
@Suite("Key path parts")
struct KeyPathPartsTests {
    @Test func aToOneRelationshipsDestinationIsReadFromItsPath() {
        var parts = KeyPathParts()
        parts.addToOne(\Dog.master, \Dog?.?.master, "master")
        #expect(parts.toOnes.count == 1)
        #expect(parts.toOnes.first?.name == "master")
        #expect(parts.toOnes.first.map { ObjectIdentifier($0.destination) } == ObjectIdentifier(Person.self))
    }

    @Test func aPathWhoseValueIsNoOptionalEntityAddsNothing() {
        var parts = KeyPathParts()
        parts.addToOne(\Dog.nickname, \Dog?.?.nickname, "nickname")
        parts.addToOne(\Person.name, \Person?.?.name, "name")
        #expect(parts.toOnes.isEmpty)
    }

    @Test func aToOneReadAndSetThroughTheBaseClassIsTheTypedOne() async throws {
        let stack = try makeStack()
        try await stack.perform { transaction in
            let person = transaction.create(Into<Person>())
            person.name = "Ada"
            let dog = transaction.create(Into<Dog>())
            dog.setToOneObject(0, "master", person)
            #expect(dog.toOneObject(0) === person)
            #expect(dog.master === person)
            dog.setToOneObject(0, "master", nil)
            #expect(dog.master == nil)
            #expect(dog.toOneObject(0) == nil)
        }
    }
}
