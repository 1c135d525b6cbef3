import Foundation
import Strata

/// The benchmark entity, written exactly as the generator emits entity classes.
final class Item: StrataObject {
    override class var entityName: String { "Item" }

    private var _code: Int64 = 0
    private var _name: String = ""
    private var _score: Double = 0
    private var _category: Int64 = 0
    private var _createdAt = Date(timeIntervalSince1970: 0)

    /// The key paths the accessors report to Observation, each formed once.
    private enum ObservedKeyPaths {
        static let _code = \Item.code
        static let _name = \Item.name
        static let _score = \Item.score
        static let _category = \Item.category
        static let _createdAt = \Item.createdAt
    }

    var code: Int64 {
        get {
            observationAccess(ObservedKeyPaths._code)
            return _code
        }
        set {
            willSet(0, "code")
            observedMutation(ObservedKeyPaths._code) { _code = newValue }
        }
    }
    var name: String {
        get {
            observationAccess(ObservedKeyPaths._name)
            return _name
        }
        set {
            willSet(1, "name")
            observedMutation(ObservedKeyPaths._name) { _name = newValue }
        }
    }
    var score: Double {
        get {
            observationAccess(ObservedKeyPaths._score)
            return _score
        }
        set {
            willSet(2, "score")
            observedMutation(ObservedKeyPaths._score) { _score = newValue }
        }
    }
    var category: Int64 {
        get {
            observationAccess(ObservedKeyPaths._category)
            return _category
        }
        set {
            willSet(3, "category")
            observedMutation(ObservedKeyPaths._category) { _category = newValue }
        }
    }
    var createdAt: Date {
        get {
            observationAccess(ObservedKeyPaths._createdAt)
            return _createdAt
        }
        set {
            willSet(4, "createdAt")
            observedMutation(ObservedKeyPaths._createdAt) { _createdAt = newValue }
        }
    }

    override func readColumns(_ reader: inout RowReader) {
        super.readColumns(&reader)
        _code = reader.int64()
        _name = reader.string()
        _score = reader.double()
        _category = reader.int64()
        _createdAt = reader.date()
    }

    override func bindColumns(to binder: inout ColumnBinder) {
        super.bindColumns(to: &binder)
        binder.bind(int64: _code)
        binder.bind(string: _name)
        binder.bind(double: _score)
        binder.bind(int64: _category)
        binder.bind(date: _createdAt)
    }

    override class func propertyName(for keyPath: AnyKeyPath) -> String? {
        switch keyPath {
        case \Item.code: return "code"
        case \Item.name: return "name"
        case \Item.score: return "score"
        case \Item.category: return "category"
        case \Item.createdAt: return "createdAt"
        default: return super.propertyName(for: keyPath)
        }
    }
}

enum Bench {
    static let v1 = ModelVersion("V1", entities: [
        EntityDescription("Item", attributes: [
            AttributeDescription("code", .int64, indexed: true),
            AttributeDescription("name", .string),
            AttributeDescription("score", .double),
            AttributeDescription("category", .int64, indexed: true),
            AttributeDescription("createdAt", .date),
        ]),
    ], versionLock: ["Item": [1, 2, 3, 4]])

    static let schemaHistory = SchemaHistory(model: "Bench", versions: [v1], migrationChain: ["V1"], current: "V1", entityTypes: [Item.self])
}

extension Item {
    /// The payload the generator emits for `import: {uniqueID: code}` with every attribute mapped by name.
    struct ImportPayload: JSONImportPayload {
        var code: Int64?
        var name: String?
        var score: Double?
        var category: Int64?
        var createdAt: Date?

        init(from decoder: any Decoder) throws {
            try self.init(reading: ImportPayloadReader(decoder, entity: "Item"))
        }

        init(reading source: ImportPayloadReader) throws {
            self.code = try source.value(Int64.self, "code", attribute: "code")
            self.name = try source.value(String.self, "name", attribute: "name")
            self.score = try source.value(Double.self, "score", attribute: "score")
            self.category = try source.value(Int64.self, "category", attribute: "category")
            self.createdAt = try source.value(Date.self, "createdAt", attribute: "createdAt")
        }
    }
}

/// The importer the generator emits for the payload.
extension Item: ImportableUniqueObject {
    typealias ImportSource = ImportPayload

    static var uniqueIDKeyPath: ReferenceWritableKeyPath<Item, Int64> { \.code }

    static func uniqueID(from source: ImportPayload, in transaction: BaseDataTransaction) throws -> UniqueIDValue? {
        source.code
    }

    func update(from source: ImportPayload, in transaction: BaseDataTransaction) throws {
        if let value = source.name { self.name = value }
        if let value = source.score { self.score = value }
        if let value = source.category { self.category = value }
        if let value = source.createdAt { self.createdAt = value }
    }
}
