import Testing
@testable import StrataSchema

@Suite("Model files: references between entities")
struct ReferenceErrorTests {
    private func messages(_ version: String) throws -> [String] {
        try ModelFixture(v1: version).messages()
    }

    @Test func relationshipsToMissingEntities() throws {
        #expect(try messages("""
        version: V1
        entities:
          Dog:
            relationships:
              master: {destination: Persn, inverse: pets}
          Person:
            relationships:
              pets: {destination: Dog, inverse: master, toMany: unordered}
        """) == [
            "V1.yml:5:29: error: destination 'Persn' of relationship 'Dog.master' is not an entity of version 'V1'; did you mean 'Person'?",
        ])
    }

    @Test func inversesMustExistPointBackAndBeRelationships() throws {
        #expect(try messages("""
        version: V1
        entities:
          Dog:
            attributes:
              name: String
            relationships:
              master: {destination: Person, inverse: pts}
              owner: {destination: Person, inverse: pets}
              vet: {destination: Person, inverse: name}
              cat: {destination: Cat, inverse: dog}
          Person:
            attributes:
              name: String
            relationships:
              pets: {destination: Dog, inverse: master, toMany: unordered}
          Cat:
            relationships:
              dog: {destination: Person, inverse: cat}
        """) == [
            "V1.yml:7:46: error: inverse 'pts' of relationship 'Dog.master' is not a relationship of 'Person'; did you mean 'pets'?",
            "V1.yml:8:45: error: inverse of relationship 'Dog.owner' is 'Person.pets', whose inverse is 'master', not 'owner'",
            "V1.yml:9:43: error: inverse 'name' of relationship 'Dog.vet' is an attribute of 'Person', not a relationship",
            "V1.yml:10:40: error: inverse of relationship 'Dog.cat' is 'Cat.dog', which points to 'Person', not 'Dog'",
            "V1.yml:15:41: error: inverse of relationship 'Person.pets' is 'Dog.master', whose inverse is 'pts', not 'pets'",
            "V1.yml:18:43: error: inverse 'cat' of relationship 'Cat.dog' is not a relationship of 'Person'",
        ])
    }

    @Test func inheritedRelationshipsAndSelfInversesAreValid() throws {
        #expect(try messages("""
        version: V1
        entities:
          Animal:
            abstract: true
            relationships:
              owner: {destination: Person, inverse: animals}
          Dog:
            parent: Animal
          Person:
            relationships:
              animals: {destination: Animal, inverse: owner, toMany: unordered}
              favourite: {destination: Dog, inverse: owner}
              friends: {destination: Person, inverse: friends, toMany: ordered, max: 500}
        """) == [
            "V1.yml:12:46: error: inverse of relationship 'Person.favourite' is 'Animal.owner', whose inverse is 'animals', not 'favourite'",
        ])
    }

    @Test func inheritanceCyclesAndMissingParents() throws {
        #expect(try messages("""
        version: V1
        entities:
          A:
            parent: C
          B:
            parent: A
          C:
            parent: B
          D:
            parent: Animl
          Animal:
            abstract: true
          E:
            parent: E
        """) == [
            "V1.yml:4:13: error: entity 'A' inherits from itself: A → C → B → A",
            "V1.yml:6:13: error: entity 'B' inherits from itself: B → A → C → B",
            "V1.yml:8:13: error: entity 'C' inherits from itself: C → B → A → C",
            "V1.yml:10:13: error: parent 'Animl' of entity 'D' is not an entity of version 'V1'; did you mean 'Animal'?",
            "V1.yml:14:13: error: entity 'E' inherits from itself: E → E",
        ])
    }

    @Test func duplicateNamesAndStorageKeyClashes() throws {
        #expect(try messages("""
        version: V1
        entities:
          Animal:
            attributes:
              species: String
              legs: Int16
          Dog:
            parent: Animal
            attributes:
              species: String
              name: String
              Name: {type: String, storageKey: label}
              label: Int32
              LEGS: Int16
            relationships:
              name: {destination: Dog, inverse: name}
          Cat:
            parent: Animal
            attributes:
              name: String
          person:
            attributes:
              x: {type: String, storageKey: strata_id}
          Person: {}
          strata_meta: {}
        """) == [
            "V1.yml:10:7: error: attribute 'Dog.species' clashes with 'species' inherited from 'Animal'",
            "V1.yml:13:7: error: storage key 'label' of 'Dog.label' clashes with 'Dog.Name' in table 'Animal' (SQLite column names ignore case)",
            "V1.yml:14:7: error: storage key 'LEGS' of 'Dog.LEGS' clashes with 'Animal.legs' in table 'Animal' (SQLite column names ignore case)",
            "V1.yml:16:7: error: entity 'Dog' declares 'name' both as an attribute and as a relationship",
            "V1.yml:20:7: error: storage key 'name' of 'Cat.name' clashes with 'Dog.name' in table 'Animal' (SQLite column names ignore case)",
            "V1.yml:23:37: error: 'storageKey' of attribute 'person.x' is 'strata_id', but names beginning with 'strata_' are reserved for Strata's own columns",
            "V1.yml:24:3: error: entity 'Person' clashes with entity 'person': SQLite table names ignore case",
            "V1.yml:25:3: error: entity name 'strata_meta' is reserved: names beginning with 'strata_' belong to Strata's own tables",
        ])
    }

    @Test func uniquenessGroupsAndImportBlocks() throws {
        #expect(try messages("""
        version: V1
        entities:
          Person:
            attributes:
              personID: Int64
              name: {type: String, unique: true}
              code: String
              settings: {type: Codable, swiftType: Settings, coder: json}
              initials: {type: String, virtual: true}
            relationships:
              friends: {destination: Person, inverse: friends, toMany: unordered}
            uniqueness: [[nmae, code], [code, code], [friends], [initials], [settings], []]
            import:
              uniqueID: personID
              keys: {personID: id, nmae: full_name, friends: friends, initials: ini, code: [x]}
          Pet:
            attributes:
              tag: String
            uniqueness: [[tag]]
            import:
              uniqueID: tg
          Toy:
            attributes:
              tag: String
            uniqueness: [[tag]]
            import: {uniqueID: tag}
        """) == [
            "V1.yml:12:19: error: uniqueness group of entity 'Person' names 'nmae', which is not an attribute of 'Person'; did you mean 'name'?",
            "V1.yml:12:39: error: uniqueness group of entity 'Person' names 'code' twice",
            "V1.yml:12:47: error: uniqueness group of entity 'Person' names 'friends', which is a relationship; only attributes can be unique together",
            "V1.yml:12:58: error: uniqueness group of entity 'Person' names virtual attribute 'initials', which is not stored",
            "V1.yml:12:70: error: uniqueness group of entity 'Person' names Codable attribute 'settings', whose encoded values cannot be compared",
            "V1.yml:12:81: error: a 'uniqueness' group of entity 'Person' is empty",
            "V1.yml:14:17: error: import uniqueID 'personID' of entity 'Person' must name an attribute marked 'unique: true'",
            "V1.yml:15:28: error: import key 'nmae' of entity 'Person' is not a property of 'Person'; did you mean 'name'?",
            "V1.yml:15:63: error: import key 'initials' of entity 'Person' names a virtual attribute, which is not stored",
            "V1.yml:15:84: error: import key of 'Person.code' must be a JSON key path, not a sequence",
            "V1.yml:21:17: error: import uniqueID 'tg' of entity 'Pet' is not an attribute of 'Pet'; did you mean 'tag'?",
        ])
    }

    @Test func importedRelationshipsNeedImportableDestinations() throws {
        #expect(try messages("""
        version: V1
        entities:
          Person:
            attributes:
              code: {type: String, unique: true}
            relationships:
              pets: {destination: Dog, inverse: owner, toMany: unordered}
            import:
              uniqueID: code
              keys: {code: id, pets: pets}
          Dog:
            relationships:
              owner: {destination: Person, inverse: pets}
        """) == [
            "V1.yml:10:24: error: import key 'pets' of entity 'Person' names a relationship to 'Dog', which has no import block to import its objects with",
        ])
    }

    /// An attribute the app codes has no JSON form to import; `coder: custom` is otherwise valid,
    /// and a misspelt coder lists it among the choices.
    @Test func importKeysCannotNameAttributesTheAppCodes() throws {
        #expect(try messages("""
        version: V1
        entities:
          Patient:
            attributes:
              name: {type: String, unique: true}
              bloodType: {type: Codable, swiftType: BloodType, coder: custom}
              notes: {type: Codable, swiftType: Notes, coder: costum}
            import:
              uniqueID: name
              keys: {name: name, bloodType: blood_type}
        """) == [
            "V1.yml:7:55: error: 'coder' of attribute 'Patient.notes' must be json, propertyList, binary or custom, not 'costum'; did you mean 'custom'?",
            "V1.yml:10:26: error: import key 'bloodType' of entity 'Patient' names an attribute the app codes ('coder: custom'), "
                + "which no JSON value fills; set it in a hand-written importer instead",
        ])
    }

    @Test func entitiesMayNotTakeTheNamesOfTheGeneratedNamespaces() throws {
        #expect(try messages("""
        version: V1
        entities:
          Shop:
            attributes:
              name: String
          ShopV1:
            attributes:
              name: String
          ShopV2:
            attributes:
              name: String
        """) == [
            "V1.yml:3:3: error: entity 'Shop' has the name of its model; the generated code declares 'enum Shop' for the model",
            "V1.yml:6:3: error: entity 'ShopV1' has the name the generated code gives to version 'V1' of model 'Shop'",
        ])
    }

    @Test func propertiesMayNotTakeTheNamesOfEntitiesOrTheModel() throws {
        #expect(try messages("""
        version: V1
        entities:
          Kind:
            attributes:
              Kind: String
              Shop: String
            relationships:
              Order: {destination: Order, inverse: kinds}
          Order:
            relationships:
              kinds: {destination: Kind, inverse: Order, toMany: unordered}
        """) == [
            "V1.yml:5:7: error: attribute 'Kind.Kind' has the name of entity 'Kind'; generated code uses that name as a type where the "
                + "property would hide it, so give the property another name",
            "V1.yml:6:7: error: attribute 'Kind.Shop' has the name of the model; generated code uses that name as a type where the "
                + "property would hide it, so give the property another name",
            "V1.yml:8:7: error: relationship 'Kind.Order' has the name of entity 'Order'; generated code uses that name as a type where "
                + "the property would hide it, so give the property another name",
        ])
    }
}
