import Foundation
import Testing
@testable import StrataSchema

@Suite("Model files: shape and spelling errors")
struct ParsingErrorTests {
    private func messages(_ version: String) throws -> [String] {
        try ModelFixture(v1: version).messages()
    }

    @Test func aValidModelHasNoDiagnostics() throws {
        let model = try ModelFixture(v1: """
        version: V1
        entities:
          Person:
            attributes:
              name: {type: String, default: "", indexed: true}
              age: Int16
        """)
        #expect(model.messages() == [])
        #expect(model.load().isValid)
    }

    @Test func misspeltKeysGetAHint() throws {
        #expect(try messages("""
        version: V1
        entities:
          Person:
            atributes:
              name: {type: String, optionl: true}
        """) == [
            "V1.yml:4:5: error: unknown key 'atributes' in entity 'Person'; did you mean 'attributes'?",
        ])
        #expect(try messages("""
        version: V1
        entities:
          Person:
            attributes:
              name: {type: String, optionl: true}
        """) == [
            "V1.yml:5:28: error: unknown key 'optionl' in attribute 'Person.name'; did you mean 'optional'?",
        ])
        #expect(try messages("versoin: V1\nentities: {}\n") == [
            "V1.yml:1:1: error: unknown key 'versoin' in version file; did you mean 'version'?",
            "V1.yml:1:1: error: version file is missing 'version'",
        ])
    }

    @Test func wrongValueKindsAreNamed() throws {
        #expect(try messages("""
        version: V1
        entities:
          Person:
            abstract: yes
            attributes:
              name: {type: String, optional: 1, indexed: [a]}
            relationships: [pets]
        """) == [
            "V1.yml:4:15: error: 'abstract' of entity 'Person' must be true or false, not 'yes'",
            "V1.yml:6:38: error: 'optional' of attribute 'Person.name' must be true or false, not '1'",
            "V1.yml:6:50: error: 'indexed' of attribute 'Person.name' must be true or false, not a sequence",
            "V1.yml:7:20: error: 'relationships' of entity 'Person' must be a mapping, not a sequence",
        ])
    }

    @Test func unknownTypesGetAHint() throws {
        #expect(try messages("version: V1\nentities:\n  Person:\n    attributes:\n      name: Strng\n      age: {type: int64}\n") == [
            "V1.yml:5:13: error: unknown type 'Strng' for attribute 'Person.name'; did you mean 'String'?",
            "V1.yml:6:19: error: unknown type 'int64' for attribute 'Person.age'; did you mean 'Int64'?",
        ])
        // Core Data's names are recognised; a name like no type lists them all.
        #expect(try messages("version: V1\nentities:\n  Person:\n    attributes:\n      age: {type: Integer 32}\n      photo: {type: Picture}\n") == [
            "V1.yml:5:19: error: unknown type 'Integer 32' for attribute 'Person.age'; did you mean 'Int32'?",
            "V1.yml:6:21: error: unknown type 'Picture' for attribute 'Person.photo'; the types are Bool, Int16, Int32, Int64, Int, "
                + "Double, Float, Decimal, String, Date, Data, UUID, URL, Codable",
        ])
    }

    @Test func defaultsMustFitTheirType() throws {
        #expect(try messages("""
        version: V1
        entities:
          Item:
            attributes:
              a: {type: Int16, default: 70000}
              b: {type: Bool, default: maybe}
              c: {type: UUID, default: nope}
              d: {type: Date, default: 2024-02-30}
              e: {type: Double, default: .inf}
              f: {type: Decimal, default: 1.2.3}
              g: {type: String, default: ~}
              h: {type: URL, default: "no scheme"}
              i: {type: Data, default: "!!"}
              j: {type: Int32, default: [1]}
        """) == [
            "V1.yml:5:33: error: default of attribute 'Item.a' '70000' is not a whole number from -32768 to 32767",
            "V1.yml:6:32: error: default of attribute 'Item.b' 'maybe' is not true or false",
            "V1.yml:7:32: error: default of attribute 'Item.c' 'nope' is not a UUID such as 3F2504E0-4F89-11D3-9A0C-0305E82C3301",
            "V1.yml:8:32: error: default of attribute 'Item.d' '2024-02-30' is not a date such as 2024-05-01 or 2024-05-01T12:30:00Z",
            "V1.yml:9:34: error: default of attribute 'Item.e' '.inf' is not a finite number",
            "V1.yml:10:35: error: default of attribute 'Item.f' '1.2.3' is not a decimal number such as 12.50",
            "V1.yml:11:34: error: default of attribute 'Item.g' cannot be null; leave it out and mark the attribute optional instead",
            "V1.yml:12:31: error: default of attribute 'Item.h' 'no scheme' is not an absolute URL",
            "V1.yml:13:32: error: default of attribute 'Item.i' '!!' is not base64 data",
            "V1.yml:14:33: error: default of attribute 'Item.j' must be a single value, not a sequence",
        ])
    }

    @Test func defaultsAreCanonicalised() throws {
        let loaded = try ModelFixture(v1: """
        version: V1
        entities:
          Item:
            attributes:
              a: {type: Int64, default: +0042}
              b: {type: Double, default: 1.50}
              c: {type: Decimal, default: -012.3400}
              d: {type: Date, default: "2024-05-01T14:30:00.500+02:00"}
              e: {type: UUID, default: 3f2504e0-4f89-11d3-9a0c-0305e82c3301}
              f: {type: Date, default: 2024-02-29}
              g: {type: Float, default: 0.1}
        """).load()
        let item = try #require(loaded.model?.versions.first?.entity(named: "Item"))
        #expect(item.attributes.map { $0.defaultValue ?? "-" } == [
            "42", "1.5", "-12.34", "2024-05-01T12:30:00.5Z", "3F2504E0-4F89-11D3-9A0C-0305E82C3301", "2024-02-29T00:00:00Z", "0.1",
        ])
    }

    @Test func transientAttributesAndHashModifiersAreChecked() throws {
        #expect(try messages("""
        version: V1
        entities:
          Item:
            hashModifier: ""
            attributes:
              a: {type: String, transient: true, virtual: true}
              b: {type: String, transient: true, indexed: true, storageKey: bee}
              c: {type: Codable, swiftType: Foo, coder: json, transient: true}
              d: {type: String, virtual: true, hashModifier: x}
              e: {type: String, transient: true, hashModifier: x}
              f: {type: String, hashModifier: [x]}
            uniqueness: [[e, f]]
        """) == [
            "V1.yml:4:19: error: 'hashModifier' of entity 'Item' is empty; give text that marks the change, or leave it out",
            "V1.yml:6:25: error: attribute 'Item.a' is both virtual (the app computes it) and transient (each object keeps it); keep one",
            "V1.yml:7:42: error: 'indexed' of attribute 'Item.b' has no effect: transient attributes are not stored",
            "V1.yml:7:57: error: 'storageKey' of attribute 'Item.b' has no effect: transient attributes are not stored",
            "V1.yml:8:55: error: attribute 'Item.c' is transient and Codable; a transient attribute holds one of the model's value types",
            "V1.yml:9:40: error: 'hashModifier' of attribute 'Item.d' has no effect: virtual attributes are not stored",
            "V1.yml:10:42: error: 'hashModifier' of attribute 'Item.e' has no effect: transient attributes are not stored",
            "V1.yml:11:39: error: 'hashModifier' of attribute 'Item.f' must be a string, not a sequence",
            "V1.yml:12:19: error: uniqueness group of entity 'Item' names transient attribute 'e', which is not stored",
        ])
    }

    @Test func optionCombinationsAreChecked() throws {
        #expect(try messages("""
        version: V1
        entities:
          Item:
            attributes:
              a: {type: Codable}
              b: {type: String, coder: json}
              c: {type: String, initial: now}
              d: {type: Date, initial: now, default: 2024-01-01}
              e: {type: String, virtual: true, indexed: true}
              f: {type: Codable, swiftType: "Foo; import Bar", coder: json}
              g: {type: UUID, initial: random}
        """) == [
            "V1.yml:5:7: error: attribute 'Item.a' is Codable, so it needs 'coder': json, propertyList, binary or custom",
            "V1.yml:5:7: error: attribute 'Item.a' is Codable, so it needs 'swiftType' naming the Swift type stored",
            "V1.yml:6:25: error: 'coder' of attribute 'Item.b' applies to Codable attributes only",
            "V1.yml:7:25: error: 'initial: now' of attribute 'Item.c' needs type Date, not String",
            "V1.yml:8:23: error: attribute 'Item.d' has both 'default' and 'initial'; keep one",
            "V1.yml:9:40: error: 'indexed' of attribute 'Item.e' has no effect: virtual attributes are not stored",
            "V1.yml:10:37: error: 'swiftType' of attribute 'Item.f' must be a Swift type name such as PersonSettings or Geo.Point, not 'Foo; import Bar'",
            "V1.yml:11:32: error: 'initial' of attribute 'Item.g' must be now or uuid, not 'random'",
        ])
    }

    @Test func namesMustBeIdentifiers() throws {
        #expect(try messages("""
        version: V1
        entities:
          my-entity: {}
          Item:
            attributes:
              2fast: String
              "with space": String
            relationships:
              "a.b": {destination: Item, inverse: "a.b"}
        """) == [
            "V1.yml:3:3: error: 'my-entity' is not a valid entity name; names start with a letter or '_' and go on with letters, digits or '_'",
            "V1.yml:6:7: error: '2fast' is not a valid attribute name; names start with a letter or '_' and go on with letters, digits or '_'",
            "V1.yml:7:7: error: 'with space' is not a valid attribute name; names start with a letter or '_' and go on with letters, digits or '_'",
            "V1.yml:9:7: error: 'a.b' is not a valid relationship name; names start with a letter or '_' and go on with letters, digits or '_'",
        ])
    }

    @Test func swiftAndSQLKeywordsAreLegalNames() throws {
        let model = try ModelFixture(v1: """
        version: V1
        entities:
          Order:
            attributes:
              class: String
              select: {type: Int64, storageKey: where}
              default: {type: Bool, default: false}
              self: {type: String, optional: true}
              größe: Double
              🐶: {type: String, optional: true}
            relationships:
              from: {destination: Table, inverse: in, toMany: ordered}
          Table:
            relationships:
              in: {destination: Order, inverse: from}
        """)
        #expect(model.messages() == [])
    }

    @Test func relationshipCountsAreChecked() throws {
        #expect(try messages("""
        version: V1
        entities:
          A:
            relationships:
              b: {destination: B, inverse: a, min: 1}
          B:
            relationships:
              a: {destination: A, inverse: b, toMany: ordered, min: 3, max: 2, deleteRule: remove}
              c: {destination: A, inverse: d, toMany: many}
        """) == [
            "V1.yml:5:39: error: 'min' and 'max' of relationship 'A.b' apply to to-many relationships only",
            "V1.yml:8:56: error: 'min' of relationship 'B.a' is 3, more than its 'max' of 2",
            "V1.yml:8:84: error: 'deleteRule' of relationship 'B.a' must be nullify, cascade or deny, not 'remove'",
            "V1.yml:9:36: error: inverse 'd' of relationship 'B.c' is not a relationship of 'A'",
            "V1.yml:9:47: error: 'toMany' of relationship 'B.c' must be unordered or ordered, not 'many'",
        ])
    }
}

@Suite("Model files: every remaining shape error")
struct RemainingShapeErrorTests {
    @Test func valuesOfTheWrongShape() throws {
        #expect(try ModelFixture(v1: """
        version: V1
        entities:
          Item: just a string
          Box:
            parent: [Item]
            attributes:
              a: {type: Codable, swiftType: A, coder: json, indexed: true}
              b: {type: String, storageKey: ""}
              c: {type: String, storageKey: "bad\\tkey"}
            relationships:
              r: {inverse: s}
              t: {destination: "Box Two", inverse: u, toMany: unordered, min: -1, max: 0}
            uniqueness: [[{a: 1}], nope]
          Crate:
            uniqueness: {a: b}
        versionLock:
          Box: [0x1, 0x2, 0x3]
          Item: [1, 2, 3, 4]
          Crate: [0x1, 0x2, 0x3, 0x12345678901234567]
        """).messages() == [
            "V1.yml:3:9: error: entity 'Item' must be a mapping, not a string",
            "V1.yml:5:13: error: 'parent' of entity 'Box' must be a string, not a sequence",
            "V1.yml:7:53: error: attribute 'Box.a' is Codable, and encoded values can be neither indexed nor unique",
            "V1.yml:8:37: error: 'storageKey' of attribute 'Box.b' must be a non-empty name without control characters",
            "V1.yml:9:37: error: 'storageKey' of attribute 'Box.c' must be a non-empty name without control characters",
            "V1.yml:11:10: error: relationship 'Box.r' is missing 'destination'",
            "V1.yml:12:24: error: 'Box Two' is not a valid entity name; names start with a letter or '_' and go on with letters, digits or '_'",
            "V1.yml:12:71: error: 'min' of relationship 'Box.t' must be a whole number of at least 0, not '-1'",
            "V1.yml:12:75: error: 'max' of relationship 'Box.t' is 0, so it could never hold an object",
            "V1.yml:13:19: error: 'uniqueness' of entity 'Box' lists a mapping where an attribute name belongs",
            "V1.yml:13:28: error: each 'uniqueness' group of entity 'Box' must be a sequence of attribute names, not a string",
            "V1.yml:15:17: error: 'uniqueness' of entity 'Crate' must be a sequence, not a mapping",
            "V1.yml:17:8: error: lock of entity 'Box' must be four hex numbers such as [0x1b59d511019695cf, 0xdeb97e86c5eff179, 0x01cfd80745646cb3, 0x4ff99416175b5b9a]",
            "V1.yml:18:9: error: lock of entity 'Item' must be four hex numbers such as [0x1b59d511019695cf, 0xdeb97e86c5eff179, 0x01cfd80745646cb3, 0x4ff99416175b5b9a]",
            "V1.yml:19:10: error: lock of entity 'Crate' must be four hex numbers such as [0x1b59d511019695cf, 0xdeb97e86c5eff179, 0x01cfd80745646cb3, 0x4ff99416175b5b9a]",
        ])
    }

    @Test func manifestAndFileShapes() throws {
        let fixture = try ModelFixture([
            "model.yml": "model: Shop\nmigrationChain: [V1, \"V-2\", {a: b}]\nconfigurations: {A: [{x: y}], B: Box}\n",
            "V1.yml": "version: V1\nversionLock: [1]\n",
        ])
        try FileManager.default.createDirectory(atPath: fixture.directory + "/Folder.yml", withIntermediateDirectories: false)
        #expect(fixture.messages() == [
            "V1.yml:1:1: error: version file is missing 'entities'",
            "V1.yml:2:14: error: 'versionLock' must be a mapping of entity names to four hex numbers, not a sequence",
            "model.yml:2:22: error: 'V-2' is not a valid version name; names start with a letter or '_' and go on with letters, digits or '_'",
            "model.yml:2:29: error: 'migrationChain' names versions, so it cannot hold a mapping",
            "model.yml:3:22: error: configuration 'A' lists a mapping where an entity name belongs",
            "model.yml:3:34: error: configuration 'B' must be a sequence of entity names, not a string",
        ])
    }

    @Test func entitiesRenamedFromTheSameOne() throws {
        let fixture = try ModelFixture([
            "model.yml": "model: Shop\nmigrationChain: [V1, V2]\n",
            "V1.yml": "version: V1\nentities: {Person: {}}\n",
            "V2.yml": "version: V2\nentities: {A: {}, B: {}}\nmigration:\n  from: V1\n  entities:\n    A: {renamedFrom: Person}\n    B: {renamedFrom: Person}\n",
        ])
        #expect(fixture.messages() == ["V2.yml:7:22: error: entities 'A' and 'B' are both renamed from 'Person'"])
    }

    @Test func anUnreadableFileIsNamed() throws {
        let fixture = try ModelFixture(v1: "version: V1\nentities: {}\n")
        try fixture.write("V2.yml", "version: V2\nentities: {}\n")
        // A dangling symbolic link cannot be read.
        try FileManager.default.createSymbolicLink(atPath: fixture.directory + "/V3.yml", withDestinationPath: fixture.directory + "/missing")
        #expect(fixture.messages().contains("V3.yml:1:1: error: cannot read the file; check that it exists and is readable"))
    }
}

@Suite("Model files: names generated code cannot use")
struct ReservedNameTests {
    @Test func entityAndPropertyNamesThatWouldBreakGeneratedCode() throws {
        #expect(try ModelFixture(v1: """
        version: V1
        entities:
          Date: {}
          ObservedProperties: {}
          Item:
            attributes:
              objectID: Int64
              Type: String
              self: String
              class: String
              observedProperties: String
              didSet: String
            relationships:
              entityName: {destination: Item, inverse: entityName}
        """).messages() == [
            "V1.yml:3:3: error: 'Date' cannot name an entity: generated code uses that type name",
            "V1.yml:4:3: error: 'ObservedProperties' cannot name an entity: generated code uses that type name",
            "V1.yml:7:7: error: 'objectID' cannot name an attribute: every entity class already has a member of that name",
            "V1.yml:8:7: error: 'Type' cannot name an attribute: every entity class already has a member of that name",
            "V1.yml:11:7: error: 'observedProperties' cannot name an attribute: every entity class already has a member of that name",
            "V1.yml:12:7: error: 'didSet' cannot name an attribute: every entity class already has a member of that name",
            "V1.yml:14:7: error: 'entityName' cannot name a relationship: every entity class already has a member of that name",
        ])
    }
}

@Suite("Model files: doc keys")
struct DocKeyTests {
    @Test func docsAreReadAndBadOnesReported() throws {
        let fixture = try ModelFixture([
            "model.yml": "model: Shop\ndoc: The shop.\nmigrationChain: [V1]\n",
            "V1.yml": """
            version: V1
            entities:
              Item:
                doc: |
                  An item.
                  Second line.
                attributes:
                  name: {type: String, doc: The name.}
                  code: {type: Int16, doc: [1, 2]}
                relationships:
                  box: {destination: Box, inverse: items, doc: The box.}
              Box:
                doc: {a: 1}
                relationships:
                  items: {destination: Item, inverse: box, toMany: unordered}
            """,
        ])
        #expect(fixture.messages() == [
            "V1.yml:9:32: error: 'doc' of attribute 'Item.code' must be a string, not a sequence",
            "V1.yml:13:10: error: 'doc' of entity 'Box' must be a string, not a mapping",
        ])
        let valid = try ModelFixture([
            "model.yml": "model: Shop\ndoc: The shop.\nmigrationChain: [V1]\n",
            "V1.yml": "version: V1\nentities:\n  Item:\n    doc: |\n      An item.\n      Second line.\n    attributes:\n      name: {type: String, doc: The name.}\n",
        ])
        let model = try #require(valid.load().model)
        #expect(model.manifest.doc == "The shop.")
        #expect(model.versions[0].entities[0].doc == "An item.\nSecond line.\n")
        #expect(model.versions[0].entities[0].attributes[0].doc == "The name.")
    }
}
