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

    /// The key paths the accessors report to Observation: the superclass's, then this class's.
    override class var observedProperties: ObservedProperties {
        var properties = super.observedProperties
        properties.addColumns([
            \Item.code,
            \Item.name,
            \Item.score,
            \Item.category,
            \Item.createdAt,
        ])
        return properties
    }

    var code: Int64 {
        get {
            observationAccess(column: 0)
            return _code
        }
        set {
            willSet(0, "code")
            _code = newValue
            didSet(column: 0)
        }
    }
    var name: String {
        get {
            observationAccess(column: 1)
            return _name
        }
        set {
            willSet(1, "name")
            _name = newValue
            didSet(column: 1)
        }
    }
    var score: Double {
        get {
            observationAccess(column: 2)
            return _score
        }
        set {
            willSet(2, "score")
            _score = newValue
            didSet(column: 2)
        }
    }
    var category: Int64 {
        get {
            observationAccess(column: 3)
            return _category
        }
        set {
            willSet(3, "category")
            _category = newValue
            didSet(column: 3)
        }
    }
    var createdAt: Date {
        get {
            observationAccess(column: 4)
            return _createdAt
        }
        set {
            willSet(4, "createdAt")
            _createdAt = newValue
            didSet(column: 4)
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
