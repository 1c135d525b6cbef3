import Foundation

/// The import workload: JSON-like sources (`[String: Any]`, as `JSONSerialization` returns them)
/// for codes 0..<40,000 into a database that already holds codes 0..<20,000, so half of the
/// sources update an existing row (found by its unique `code`) and half insert a new one.
enum ImportSources {
    static let count = 40_000
    static let existing = 20_000

    /// The rows in the database before the import; written untimed.
    static var prefill: [Row] { Array(Row.all.prefix(existing)) }

    /// The sources as a JSON document, made once.
    static let json: Data = {
        let objects: [[String: Any]] = (0..<count).map { index in
            let row = Row.make(index)
            return ["code": row.code, "name": row.name, "score": row.score + 1, "category": row.category,
                    "createdAt": row.createdAt.timeIntervalSince1970]
        }
        return try! JSONSerialization.data(withJSONObject: objects)
    }()

    /// A fresh array per round, parsed by `JSONSerialization` as an app would receive it, before
    /// the clock starts.
    static func make() -> [[String: Any]] {
        guard let sources = try? JSONSerialization.jsonObject(with: json) as? [[String: Any]] else { fatalError("benchmark JSON did not parse") }
        return sources
    }

    /// The values every contender reads out of a source, so all do the same conversions.
    struct Values {
        let code: Int64
        let name: String
        let score: Double
        let category: Int64
        let createdAt: Date

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
    }
}
