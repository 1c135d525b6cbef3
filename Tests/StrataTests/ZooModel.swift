import Foundation
import Strata

// Entities written by hand exactly as the generator emits them, for the runtime's tests.

struct Settings: Codable, Hashable, Sendable {
    var theme: String
    var fontSize: Int
}

enum Mood: String, QueryableAttributeType, Codable {
    case calm, playful
}

final class Person: StrataObject {
    override class var entityName: String { "Person" }


    private var _name: String = ""
    private var _age: Int16 = 0
    private var _nickname: String?
    private var _balance: Decimal = 0
    private var _createdAt = Date(timeIntervalSince1970: 0)
    private var _token = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    private var _homepage: URL?
    private var _photo: Data?
    private var _isActive = true
    private var _score = 0.0
    private var _ratio: Float = 1
    private var _visits = 0
    private var _settings: Settings?
    private var _email: String?
    private var _mood: Mood?
    private var _spouse: Int64?

    var name: String { get { _name } set { willSet(0, "name"); _name = newValue } }
    var age: Int16 { get { _age } set { willSet(1, "age"); _age = newValue } }
    var nickname: String? { get { _nickname } set { willSet(2, "nickname"); _nickname = newValue } }
    var balance: Decimal { get { _balance } set { willSet(3, "balance"); _balance = newValue } }
    var createdAt: Date { get { _createdAt } set { willSet(4, "createdAt"); _createdAt = newValue } }
    var token: UUID { get { _token } set { willSet(5, "token"); _token = newValue } }
    var homepage: URL? { get { _homepage } set { willSet(6, "homepage"); _homepage = newValue } }
    var photo: Data? { get { _photo } set { willSet(7, "photo"); _photo = newValue } }
    var isActive: Bool { get { _isActive } set { willSet(8, "isActive"); _isActive = newValue } }
    var score: Double { get { _score } set { willSet(9, "score"); _score = newValue } }
    var ratio: Float { get { _ratio } set { willSet(10, "ratio"); _ratio = newValue } }
    var visits: Int { get { _visits } set { willSet(11, "visits"); _visits = newValue } }
    var settings: Settings? { get { _settings } set { willSet(12, "settings"); _settings = newValue } }
    var email: String? { get { _email } set { willSet(13, "email"); _email = newValue } }
    var mood: Mood? { get { _mood } set { willSet(14, "mood"); _mood = newValue } }

    var pets: Set<Dog> { get { Set(toMany(0, as: Dog.self)) } set { setToMany(0, "pets", newValue) } }
    var friends: [Person] { get { toMany(1) } set { setToMany(1, "friends", newValue) } }
    var cats: [Cat] { get { toMany(2) } set { setToMany(2, "cats", newValue) } }
    var spouse: Person? { get { toOne(3) } set { setToOne(3, "spouse", newValue) } }

    override func setInitialValues() {
        super.setInitialValues()
        _createdAt = Date()
        _token = UUID()
    }

    override func readColumns(_ reader: inout RowReader) {
        super.readColumns(&reader)
        _name = reader.string()
        _age = Int16(truncatingIfNeeded: reader.int64())
        _nickname = reader.optionalString()
        _balance = reader.value(fallback: 0)
        _createdAt = reader.date()
        _token = reader.value(fallback: _token)
        _homepage = reader.optionalValue()
        _photo = reader.optionalValue()
        _isActive = reader.bool()
        _score = reader.double()
        _ratio = Float(reader.double())
        _visits = reader.int()
        _settings = reader.codable(coder: .json)
        _email = reader.optionalString()
        _mood = reader.optionalValue()
        _spouse = reader.optionalInt64()
    }

    override func bindColumns(to binder: inout ColumnBinder) {
        super.bindColumns(to: &binder)
        binder.bind(string: _name)
        binder.bind(int16: _age)
        binder.bind(value: _nickname)
        binder.bind(value: _balance)
        binder.bind(date: _createdAt)
        binder.bind(value: _token)
        binder.bind(value: _homepage)
        binder.bind(value: _photo)
        binder.bind(bool: _isActive)
        binder.bind(double: _score)
        binder.bind(float: _ratio)
        binder.bind(int: _visits)
        binder.bind(codable: _settings, coder: .json)
        binder.bind(value: _email)
        binder.bind(value: _mood)
        binder.bind(value: _spouse)
    }

    override func foreignKey(_ ordinal: Int) -> Int64? {
        switch ordinal {
        case 15: return _spouse
        default: return super.foreignKey(ordinal)
        }
    }

    override func setForeignKey(_ ordinal: Int, _ value: Int64?) {
        switch ordinal {
        case 15: _spouse = value
        default: super.setForeignKey(ordinal, value)
        }
    }

    override class func propertyName(for keyPath: AnyKeyPath) -> String? {
        switch keyPath {
        case \Person.name: return "name"
        case \Person.age: return "age"
        case \Person.nickname: return "nickname"
        case \Person.balance: return "balance"
        case \Person.createdAt: return "createdAt"
        case \Person.token: return "token"
        case \Person.homepage: return "homepage"
        case \Person.photo: return "photo"
        case \Person.isActive: return "isActive"
        case \Person.score: return "score"
        case \Person.ratio: return "ratio"
        case \Person.visits: return "visits"
        case \Person.email: return "email"
        case \Person.mood: return "mood"
        case \Person.pets: return "pets"
        case \Person.friends: return "friends"
        case \Person.cats: return "cats"
        case \Person.spouse?.name: return "spouse.name"
        case \Person.spouse: return "spouse"
        default: return super.propertyName(for: keyPath)
        }
    }

    struct Snapshot: EntitySnapshot, Codable {
        let objectID: ObjectID<Person>
        let name: String
        let age: Int16
        let nickname: String?
        let balance: Decimal

        init(objectID: ObjectID<Person>, name: String, age: Int16, nickname: String?, balance: Decimal) {
            self.objectID = objectID
            self.name = name
            self.age = age
            self.nickname = nickname
            self.balance = balance
        }

        init(_ object: Person) {
            self.init(objectID: object.objectID(as: Person.self), name: object.name, age: object.age, nickname: object.nickname, balance: object.balance)
        }
    }

    var snapshot: Snapshot { Snapshot(self) }
}

class Animal: StrataObject {
    override class var entityName: String { "Animal" }


    fileprivate var _species: String = ""
    var species: String { get { _species } set { willSet(0, "species"); _species = newValue } }

    override func readColumns(_ reader: inout RowReader) {
        super.readColumns(&reader)
        _species = reader.string()
    }

    override func bindColumns(to binder: inout ColumnBinder) {
        super.bindColumns(to: &binder)
        binder.bind(string: _species)
    }

    override class func propertyName(for keyPath: AnyKeyPath) -> String? {
        switch keyPath {
        case \Animal.species: return "species"
        default: return super.propertyName(for: keyPath)
        }
    }
}

final class Dog: Animal {
    override class var entityName: String { "Dog" }


    private var _nickname: String?
    private var _master: Int64?
    var nickname: String? { get { _nickname } set { willSet(1, "nickname"); _nickname = newValue } }
    var master: Person? { get { toOne(0) } set { setToOne(0, "master", newValue) } }

    override func readColumns(_ reader: inout RowReader) {
        super.readColumns(&reader)
        _nickname = reader.optionalString()
        _master = reader.optionalInt64()
    }

    override func bindColumns(to binder: inout ColumnBinder) {
        super.bindColumns(to: &binder)
        binder.bind(value: _nickname)
        binder.bind(value: _master)
    }

    override func foreignKey(_ ordinal: Int) -> Int64? {
        ordinal == 2 ? _master : super.foreignKey(ordinal)
    }

    override func setForeignKey(_ ordinal: Int, _ value: Int64?) {
        if ordinal == 2 { _master = value } else { super.setForeignKey(ordinal, value) }
    }

    override class func propertyName(for keyPath: AnyKeyPath) -> String? {
        switch keyPath {
        case \Dog.species: return "species"
        case \Dog.nickname: return "nickname"
        case \Dog.master: return "master"
        case \Dog.master?.name: return "master.name"
        case \Dog.master?.age: return "master.age"
        default: return super.propertyName(for: keyPath)
        }
    }
}

final class Cat: Animal {
    override class var entityName: String { "Cat" }


    private var _lives: Int32 = 9
    private var _owner: Int64?
    var lives: Int32 { get { _lives } set { willSet(1, "lives"); _lives = newValue } }
    var owner: Person? { get { toOne(0) } set { setToOne(0, "owner", newValue) } }

    override func readColumns(_ reader: inout RowReader) {
        super.readColumns(&reader)
        _lives = Int32(truncatingIfNeeded: reader.int64())
        _owner = reader.optionalInt64()
    }

    override func bindColumns(to binder: inout ColumnBinder) {
        super.bindColumns(to: &binder)
        binder.bind(int32: _lives)
        binder.bind(value: _owner)
    }

    override func foreignKey(_ ordinal: Int) -> Int64? {
        ordinal == 2 ? _owner : super.foreignKey(ordinal)
    }

    override func setForeignKey(_ ordinal: Int, _ value: Int64?) {
        if ordinal == 2 { _owner = value } else { super.setForeignKey(ordinal, value) }
    }

    override class func propertyName(for keyPath: AnyKeyPath) -> String? {
        switch keyPath {
        case \Cat.species: return "species"
        case \Cat.lives: return "lives"
        default: return super.propertyName(for: keyPath)
        }
    }
}

enum Zoo {
    static let person = EntityDescription("Person", attributes: [
        AttributeDescription("name", .string, required: true, indexed: true),
        AttributeDescription("age", .int16),
        AttributeDescription("nickname", .string, optional: true),
        AttributeDescription("balance", .decimal),
        AttributeDescription("createdAt", .date),
        AttributeDescription("token", .uuid),
        AttributeDescription("homepage", .url, optional: true),
        AttributeDescription("photo", .data, optional: true),
        AttributeDescription("isActive", .bool),
        AttributeDescription("score", .double),
        AttributeDescription("ratio", .float),
        AttributeDescription("visits", .int),
        AttributeDescription("settings", .codable, optional: true),
        AttributeDescription("email", .string, storageKey: "e_mail", optional: true, unique: true),
        AttributeDescription("mood", .string, optional: true),
    ], relationships: [
        RelationshipDescription("pets", destination: "Dog", inverse: "master", kind: .unordered, deleteRule: .cascade),
        RelationshipDescription("friends", destination: "Person", inverse: "friends", kind: .ordered, maxCount: 3),
        RelationshipDescription("cats", destination: "Cat", inverse: "owner", kind: .ordered, deleteRule: .deny),
        RelationshipDescription("spouse", destination: "Person", inverse: "spouse"),
    ])
    static let animal = EntityDescription("Animal", abstract: true, attributes: [
        AttributeDescription("species", .string),
    ])
    static let dog = EntityDescription("Dog", parent: "Animal", attributes: [
        AttributeDescription("nickname", .string, optional: true),
    ], relationships: [
        RelationshipDescription("master", destination: "Person", inverse: "pets"),
    ])
    static let cat = EntityDescription("Cat", parent: "Animal", attributes: [
        AttributeDescription("lives", .int32),
    ], relationships: [
        RelationshipDescription("owner", destination: "Person", inverse: "cats"),
    ])

    static let v1 = ModelVersion("V1", entities: [person, animal, dog, cat], versionLock: [
        "Animal": [0x1, 0x2, 0x3, 0x4], "Cat": [0x5, 0x6, 0x7, 0x8], "Dog": [0x9, 0xa, 0xb, 0xc], "Person": [0xd, 0xe, 0xf, 0x10],
    ])

    static let schemaHistory = SchemaHistory(model: "Zoo", versions: [v1], migrationChain: ["V1"], current: "V1",
                                             entityTypes: [Person.self, Animal.self, Dog.self, Cat.self])
}
