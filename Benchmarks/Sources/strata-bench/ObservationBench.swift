import Foundation
import Observation
import Strata

// `read-100k`: what Observation costs when nobody observes. Every item is fetched and every
// property of each is read: `strata` in a read context (whose objects, a snapshot, do not report
// to Observation) and `strata-main` in the main context (whose objects do), both through `Item`,
// whose accessors are generated ones; `strata-main-unobserved` in the main context of a stack
// made with `observesObjects: false`; `strata-plain` in a read context through `PlainItem`, the
// same class with the accessors of a generator without Observation; `observable-class` fetches
// as `strata-plain` does and copies each item into `ObservableReference`, a class written as the
// `@Observable` macro expands one, whose reads are what any Observable model pays. Printed: the
// fetch and reads together, and the reads alone, each with its ratio to `strata-plain`.

/// The properties `read-100k` reads, of either class.
protocol BenchItemValues: AnyObject {
    var code: Int64 { get }
    var name: String { get }
    var score: Double { get }
    var category: Int64 { get }
    var createdAt: Date { get }
}

extension Item: BenchItemValues {}
extension PlainItem: BenchItemValues {}

/// `Item` without Observation in its accessors: what generated classes were before it.
final class PlainItem: StrataObject {
    override class var entityName: String { "Item" }

    private var _code: Int64 = 0
    private var _name: String = ""
    private var _score: Double = 0
    private var _category: Int64 = 0
    private var _createdAt = Date(timeIntervalSince1970: 0)

    var code: Int64 { get { _code } set { willSet(0, "code"); _code = newValue } }
    var name: String { get { _name } set { willSet(1, "name"); _name = newValue } }
    var score: Double { get { _score } set { willSet(2, "score"); _score = newValue } }
    var category: Int64 { get { _category } set { willSet(3, "category"); _category = newValue } }
    var createdAt: Date { get { _createdAt } set { willSet(4, "createdAt"); _createdAt = newValue } }

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
}

/// An item as a class the `@Observable` macro would write: a registrar of its own, and a report
/// to it on every read. What `strata-main`'s reads are compared with.
final class ObservableReference: BenchItemValues, Observable {
    private let registrar = ObservationRegistrar()
    private let storedCode: Int64
    private let storedName: String
    private let storedScore: Double
    private let storedCategory: Int64
    private let storedCreatedAt: Date

    init(_ item: PlainItem) {
        storedCode = item.code
        storedName = item.name
        storedScore = item.score
        storedCategory = item.category
        storedCreatedAt = item.createdAt
    }

    var code: Int64 { registrar.access(self, keyPath: \.code); return storedCode }
    var name: String { registrar.access(self, keyPath: \.name); return storedName }
    var score: Double { registrar.access(self, keyPath: \.score); return storedScore }
    var category: Int64 { registrar.access(self, keyPath: \.category); return storedCategory }
    var createdAt: Date { registrar.access(self, keyPath: \.createdAt); return storedCreatedAt }
}

enum ObservationBench {
    static let workload = "read-100k"
    static let contenders = ["strata", "strata-main", "strata-main-unobserved", "strata-plain", "observable-class"]
    static let plainHistory = SchemaHistory(model: "Bench", versions: [Bench.v1], migrationChain: ["V1"], current: "V1", entityTypes: [PlainItem.self])

    /// Times of one round: fetch and reads together, and the reads alone, in milliseconds.
    struct Timing {
        var total: Double
        var reads: Double
    }

    /// Fetches every item and reads all its properties as `contender` does.
    static func run(_ contender: String, path: String) async throws -> (Checksum, Timing) {
        let plain = contender == "strata-plain" || contender == "observable-class"
        let stack = DataStack(plain ? plainHistory : Bench.schemaHistory, observesObjects: contender != "strata-main-unobserved")
        try stack.addStorageAndWait(SQLiteStore(fileURL: URL(fileURLWithPath: path)))
        return try await stack.closing { stack in
            switch contender {
            case "strata-main", "strata-main-unobserved":
                return try await readInMainContext(stack)
            case "observable-class":
                return try await stack.read { reader in try measure { try reader.fetchAll(From<PlainItem>()).map(ObservableReference.init) } }
            default:
                return try await stack.read { reader in
                    plain ? try measure { try reader.fetchAll(From<PlainItem>()) } : try measure { try reader.fetchAll(From<Item>()) }
                }
            }
        }
    }

    /// Times `fetch`, then reading every property of what it returns.
    static func measure<T: BenchItemValues>(_ fetch: () throws -> [T]) rethrows -> (Checksum, Timing) {
        let start = ContinuousClock.now
        let items = try fetch()
        let readsStart = ContinuousClock.now
        var checksum = Checksum()
        var lengths = 0
        for item in items {
            lengths += item.name.utf8.count &+ Int(item.category) &+ Int(item.createdAt.timeIntervalSince1970)
            checksum.add(code: item.code, score: item.score)
        }
        let end = ContinuousClock.now
        checksum.add(code: Int64(lengths & 0xFF), score: 0)
        return (checksum, Timing(total: milliseconds(end - start), reads: milliseconds(end - readsStart)))
    }

    /// The same reads through the stack's main context, whose objects report to Observation
    /// unless the stack was made with `observesObjects: false`.
    @MainActor
    static func readInMainContext(_ stack: DataStack) throws -> (Checksum, Timing) {
        try measure { try stack.fetchAll(From<Item>()) }
    }
}
