import Foundation

/// The import workloads: a JSON document of sources, decoded and imported inside the timing, into
/// a database that already holds some of the codes, so part of the sources update an existing row
/// (found by its unique `code`) and the rest insert a new one.
struct ImportSources: Sendable {
    /// The codes in the database before the import; written untimed.
    let existing: Range<Int>
    /// The codes of the sources, in order.
    let imported: Range<Int>

    /// `import`: 40,000 sources into 20,000 rows, half updating.
    static let standard = ImportSources(existing: 0..<scaled(20_000), imported: 0..<scaled(40_000))
    /// `import-150k`: 50,000 sources into 100,000 rows, half updating.
    static let large = ImportSources(existing: 0..<scaled(100_000), imported: scaled(75_000)..<scaled(125_000))

    static func named(_ workload: String) -> ImportSources? {
        switch workload {
        case "import": return standard
        case "import-150k", "import-dict-150k": return large
        default: return nil
        }
    }

    /// The sources of a round: for `import-dict-150k`, `import-150k`'s document as `[String: Any]`
    /// dictionaries from `JSONSerialization` (made before the clock starts), as CoreStore's users
    /// hand them to `importUniqueObjects`; for the others, the document itself.
    static func input(_ workload: String, json: Data) -> ImportInput {
        guard workload == "import-dict-150k" else { return .json(json) }
        return .dictionaries(try! JSONSerialization.jsonObject(with: json) as? [[String: Any]] ?? [])
    }

    static let workloads = ["import", "import-150k", "import-dict-150k"]

    var prefill: [Row] { existing.map(Row.make) }

    /// The sources as a JSON document: numbers, text, and dates as seconds since 1970.
    func json() -> Data {
        let objects: [[String: Any]] = imported.map { index in
            let row = Row.make(index)
            return ["code": row.code, "name": row.name, "score": row.score + 1, "category": row.category,
                    "createdAt": row.createdAt.timeIntervalSince1970]
        }
        return try! JSONSerialization.data(withJSONObject: objects)
    }

    /// The values every contender reads out of a source, so all do the same conversions.
    struct Values: Decodable {
        let code: Int64
        let name: String
        let score: Double
        let category: Int64
        let createdAt: Date

        private enum CodingKeys: String, CodingKey {
            case code, name, score, category, createdAt
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            code = try container.decode(Int64.self, forKey: .code)
            name = try container.decode(String.self, forKey: .name)
            score = try container.decode(Double.self, forKey: .score)
            category = try container.decode(Int64.self, forKey: .category)
            createdAt = Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .createdAt))
        }

        init(_ source: [String: Any]) {
            guard let code = source["code"] as? Int64, let name = source["name"] as? String, let score = source["score"] as? Double,
                  let category = source["category"] as? Int64, let createdAt = source["createdAt"] as? Double else {
                fatalError("malformed benchmark source \(source)")
            }
            self.code = code
            self.name = name
            self.score = score
            self.category = category
            self.createdAt = Date(timeIntervalSince1970: createdAt)
        }

        /// The sources' values: from dictionaries, by casts; from a JSON document, the faster way
        /// for hand-written code, a `Decodable` struct through `JSONDecoder` (161 ms for the
        /// `import` workload where `JSONSerialization` and casts took 302 ms;
        /// `STRATA_BENCH_RAW_DECODER=serialization` measures the other).
        static func decode(_ input: ImportInput) -> [Values] {
            guard case .json(let json) = input else {
                guard case .dictionaries(let sources) = input else { return [] }
                return sources.map(Values.init)
            }
            if ProcessInfo.processInfo.environment["STRATA_BENCH_RAW_DECODER"] != "serialization" {
                return try! JSONDecoder().decode([Values].self, from: json)
            }
            guard let sources = try? JSONSerialization.jsonObject(with: json) as? [[String: Any]] else { fatalError("benchmark JSON did not parse") }
            return sources.map(Values.init)
        }
    }
}

/// An import workload's sources as a contender receives them.
enum ImportInput {
    /// A JSON document, decoded inside the timing into typed values (Strata: the generated
    /// payloads) by `JSONDecoder`.
    case json(Data)
    /// `[String: Any]` dictionaries, as `JSONSerialization` returned them before the clock started.
    case dictionaries([[String: Any]])
}
