import Testing
@testable import StrataSchema

@Suite("Version locks: what changes them and what does not")
struct VersionLockTests {
    /// A valid base: every kind of stored detail appears once.
    static let base = """
    version: V1
    entities:
      Animal:
        abstract: true
        attributes:
          species: {type: String, default: ""}
      Dog:
        parent: Animal
        relationships:
          master: {destination: Person, inverse: pets}
          owner: {destination: Person, inverse: ownedDogs}
      Cat:
        parent: Animal
      Person:
        attributes:
          name: {type: String, default: "", indexed: true}
          age: {type: Int16, optional: true}
          code: {type: String, unique: true}
          createdAt: {type: Date, initial: now}
          settings: {type: Codable, swiftType: Settings, coder: json, optional: true}
        relationships:
          pets: {destination: Dog, inverse: master, toMany: unordered, deleteRule: cascade}
          ownedDogs: {destination: Dog, inverse: owner, toMany: unordered}
        uniqueness: [[name, age]]
        import:
          uniqueID: code
          keys: {name: full_name}
    """

    private func locks(_ text: String) throws -> [String: LockHash] {
        let loaded = try ModelFixture(v1: text).load()
        let version = try #require(loaded.model?.versions.first)
        return EntityShape.shapes(of: version).mapValues { LockFormat.current.lock($0) }
    }

    private func replacing(_ old: String, with new: String) -> String {
        precondition(Self.base.contains(old), "the base model has no '\(old)'")
        return Self.base.replacingOccurrences(of: old, with: new)
    }

    @Test func theBaseModelIsValid() throws {
        #expect(try ModelFixture(v1: Self.base).messages() == [])
    }

    @Test func locksAreDeterministic() throws {
        #expect(try locks(Self.base) == locks(Self.base))
        #expect(try locks(Self.base).count == 4)
    }

    @Test func theEncodingStartsWithItsFormatVersion() throws {
        let loaded = try ModelFixture(v1: Self.base).load()
        let version = try #require(loaded.model?.versions.first)
        let shape = EntityShape(try #require(version.entity(named: "Animal")), in: version)
        let text = String(decoding: LockFormat.v1.encode(shape), as: UTF8.self)
        #expect(text == """
        strata-lock/1
        entity name=6:Animal abstract=4:true parent=-
        attribute key=7:species type=6:String optional=5:false default=0: initial=- indexed=5:false unique=5:false coder=-

        """)
    }

    /// Edits that leave the stored shape alone.
    static let neutralEdits: [(String, String, String)] = [
        ("comments and blank lines", "  Person:\n", "  # people who own pets\n\n  Person:   # the owner\n"),
        ("flow style to block style", "      age: {type: Int16, optional: true}", "      age:\n        type: Int16\n        optional: true"),
        ("key order", "{type: String, default: \"\", indexed: true}", "{indexed: true, default: \"\", type: String}"),
        ("property order", "      name: {type: String, default: \"\", indexed: true}\n      age: {type: Int16, optional: true}",
         "      age: {type: Int16, optional: true}\n      name: {type: String, default: \"\", indexed: true}"),
        ("a Swift rename over the same storage key", "      code: {type: String, unique: true}", "      reference: {type: String, unique: true, storageKey: code}"),
        ("import blocks", "      keys: {name: full_name}", "      keys: {name: name, age: years}"),
        ("virtual attributes", "      createdAt: {type: Date, initial: now}", "      createdAt: {type: Date, initial: now}\n      initials: {type: String, virtual: true}"),
        ("transient attributes", "      createdAt: {type: Date, initial: now}",
         "      createdAt: {type: Date, initial: now}\n      draft: {type: String, default: \"\", transient: true}"),
        ("the Swift type of a Codable", "swiftType: Settings", "swiftType: PersonSettings"),
        ("the quoting of a default", "default: \"\", indexed", "default: '', indexed"),
        ("the spelling of a canonical default", "age: {type: Int16, optional: true}", "age: {type: Int16, optional: true, default: 007}"),
        ("uniqueness group order", "uniqueness: [[name, age]]", "uniqueness: [[age, name]]"),
    ]

    @Test(arguments: neutralEdits.indices)
    func neutralEditsKeepEveryLock(index: Int) throws {
        let (what, old, new) = Self.neutralEdits[index]
        var before = try locks(Self.base)
        let after = try locks(replacing(old, with: new))
        if what == "the spelling of a canonical default" {
            // Adding a default changes the lock once; writing it as 7 or 007 does not.
            before = try locks(replacing(old, with: "age: {type: Int16, optional: true, default: 7}"))
        }
        #expect(before == after, "\(what) changed a lock")
    }

    /// Edits that change the stored shape of one entity.
    static let shapeEdits: [(String, String, String, String)] = [
        ("Person", "attribute name", "      age: {type: Int16, optional: true}", "      years: {type: Int16, optional: true}"),
        ("Person", "storage key", "      age: {type: Int16, optional: true}", "      age: {type: Int16, optional: true, storageKey: years}"),
        ("Person", "type", "age: {type: Int16,", "age: {type: Int32,"),
        ("Person", "optionality", "age: {type: Int16, optional: true}", "age: {type: Int16, optional: false}"),
        ("Person", "default", "name: {type: String, default: \"\",", "name: {type: String, default: \"x\","),
        ("Person", "initial", "createdAt: {type: Date, initial: now}", "createdAt: {type: Date}"),
        ("Person", "index", "indexed: true}", "indexed: false}"),
        ("Person", "uniqueness of one attribute", "code: {type: String, unique: true}", "code: {type: String}"),
        ("Person", "uniqueness group", "uniqueness: [[name, age]]", "uniqueness: [[name, age], [code, createdAt]]"),
        ("Person", "coder", "coder: json", "coder: binary"),
        ("Person", "relationship kind", "toMany: unordered, deleteRule: cascade", "toMany: ordered, deleteRule: cascade"),
        ("Person", "delete rule", "deleteRule: cascade", "deleteRule: deny"),
        ("Person", "counts", "inverse: owner, toMany: unordered}", "inverse: owner, toMany: unordered, max: 3}"),
        ("Person", "relationship destination", "pets: {destination: Dog,", "pets: {destination: Animal,"),
        ("Person", "inverse", "pets: {destination: Dog, inverse: master,", "pets: {destination: Dog, inverse: owner,"),
        ("Dog", "to-one delete rule", "master: {destination: Person, inverse: pets}", "master: {destination: Person, inverse: pets, deleteRule: cascade}"),
        ("Dog", "parent", "    parent: Animal\n    relationships:", "    relationships:"),
        ("Animal", "abstract", "    abstract: true\n", "    abstract: false\n"),
        ("Cat", "a new attribute", "  Cat:\n    parent: Animal\n", "  Cat:\n    parent: Animal\n    attributes: {lives: Int16}\n"),
        ("Cat", "an entity's hash modifier", "  Cat:\n    parent: Animal\n", "  Cat:\n    parent: Animal\n    hashModifier: purrs\n"),
        ("Person", "an attribute's hash modifier", "age: {type: Int16, optional: true}", "age: {type: Int16, optional: true, hashModifier: months}"),
        ("Person", "a relationship's hash modifier", "deleteRule: cascade}", "deleteRule: cascade, hashModifier: \"2\"}"),
    ]

    /// A hash modifier is written at the end of its element's line, and only when there is one,
    /// so every lock sealed before hash modifiers existed stays as it was.
    @Test func aHashModifierEndsItsLineOfTheEncoding() throws {
        let loaded = try ModelFixture(v1: Self.base.replacingOccurrences(of: "species: {type: String, default: \"\"}",
                                                                          with: "species: {type: String, default: \"\", hashModifier: latin}")
                                      .replacingOccurrences(of: "    abstract: true\n", with: "    abstract: true\n    hashModifier: v2\n")).load()
        let version = try #require(loaded.model?.versions.first)
        let shape = EntityShape(try #require(version.entity(named: "Animal")), in: version)
        #expect(String(decoding: LockFormat.v1.encode(shape), as: UTF8.self) == """
        strata-lock/1
        entity name=6:Animal abstract=4:true parent=- hashModifier=2:v2
        attribute key=7:species type=6:String optional=5:false default=0: initial=- indexed=5:false unique=5:false coder=- hashModifier=5:latin

        """)
        let old = EntityShape(try #require(try ModelFixture(v1: Self.base).load().model?.versions.first?.entity(named: "Animal")), in: version)
        #expect(shape.changes(since: old).map(\.description) == [
            "~ entity: hashModifier none → v2", "~ attribute 'species': hashModifier none → latin",
        ])
    }

    @Test(arguments: shapeEdits.indices)
    func shapeEditsChangeTheEntitysLockBothWays(index: Int) throws {
        let (entity, what, old, new) = Self.shapeEdits[index]
        let before = try locks(Self.base)
        let edited = replacing(old, with: new)
        let after = try locks(edited)
        #expect(before[entity] != after[entity], "\(what) did not change the lock of \(entity)")
        // And back: undoing the edit restores the original lock exactly.
        let restored = try locks(edited.replacingOccurrences(of: new, with: old))
        #expect(restored[entity] == before[entity], "undoing \(what) did not restore the lock of \(entity)")
    }

    @Test func anEntityRenameChangesItsLock() throws {
        let before = try locks(Self.base)
        let after = try locks(Self.base.replacingOccurrences(of: "  Cat:\n", with: "  Kitten:\n"))
        #expect(after["Kitten"] != nil && after["Kitten"] != before["Cat"])
    }

    @Test func everyFormatEverWrittenStillVerifies() throws {
        let loaded = try ModelFixture(v1: Self.base).load()
        let version = try #require(loaded.model?.versions.first)
        for shape in EntityShape.shapes(of: version).values {
            for format in LockFormat.allCases {
                #expect(LockVerifier.matches(shape, format.lock(shape)))
            }
        }
    }
}
