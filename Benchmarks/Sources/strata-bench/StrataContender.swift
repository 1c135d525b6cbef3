import Foundation
import Strata

/// Strata: objects created in a transaction, fetched in read contexts.
struct StrataContender: Contender {
    let name = "strata"

    private func stack(_ path: String) throws -> DataStack {
        let stack = DataStack(Bench.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: URL(fileURLWithPath: path)))
        return stack
    }

    /// Gives a new item the values of a row.
    static func fill(_ item: Item, from row: Row) {
        item.code = row.code
        item.name = row.name
        item.score = row.score
        item.category = row.category
        item.createdAt = row.createdAt
    }

    func insert(_ rows: [Row], path: String) async throws -> Checksum {
        try await stack(path).closing { try await Self.insert(rows, into: $0) }
    }

    /// Creates an item of every row in one transaction.
    static func insert(_ rows: [Row], into stack: DataStack) async throws -> Checksum {
        try await stack.perform { transaction in
            var checksum = Checksum()
            for row in rows {
                Self.fill(transaction.create(Into<Item>()), from: row)
                checksum.add(code: row.code, score: row.score)
            }
            return checksum
        }
    }

    func importUnique(_ input: ImportInput, path: String) async throws -> Checksum {
        try await stack(path).closing { try Self.importUnique(input, into: $0) }
    }

    /// Imports dictionaries, or decodes a JSON document into generated payloads and imports those,
    /// in one transaction.
    static func importUnique(_ input: ImportInput, into stack: DataStack) throws -> Checksum {
        guard case .json(let json) = input else {
            guard case .dictionaries(let sources) = input else { return Checksum() }
            return try stack.perform(synchronous: { transaction in
                try Self.checksum(of: transaction.importUniqueObjects(Into<Item>(), sourceArray: sources), in: transaction)
            })
        }
        let sources = try JSONDecoder().decode([Item.ImportPayload].self, from: json)
        return try stack.perform(synchronous: { transaction in
            try Self.checksum(of: transaction.importUniqueObjects(Into<Item>(), sourceArray: sources), in: transaction)
        })
    }

    /// The checksum of imported items and the table's row count.
    private static func checksum(of items: [Item], in transaction: BaseDataTransaction) throws -> Checksum {
        var checksum = Checksum()
        for item in items { checksum.add(code: item.code, score: item.score) }
        checksum.rows = try transaction.fetchCount(From<Item>())
        return checksum
    }

    func fetchAll(path: String) async throws -> Checksum {
        try await stack(path).closing { try await Self.fetchAll(in: $0) }
    }

    /// Every item, in a read context.
    static func fetchAll(in stack: DataStack) async throws -> Checksum {
        try await stack.read { reader in
            var checksum = Checksum()
            for item in try reader.fetchAll(From<Item>()) { checksum.add(code: item.code, score: item.score) }
            return checksum
        }
    }

    func smallQueries(path: String) async throws -> Checksum {
        try await stack(path).closing { try await Self.smallQueries(in: $0) }
    }

    /// 2,000 indexed queries of ten items each, in a read context.
    static func smallQueries(in stack: DataStack) async throws -> Checksum {
        try await stack.read { reader in
            var checksum = Checksum()
            for query in 0..<Row.smallQueries {
                for item in try reader.fetchAll(smallQuery(query)) { checksum.add(code: item.code, score: item.score) }
            }
            return checksum
        }
    }

    /// The `query`th of the small queries: ten items of one category, highest score first.
    static func smallQuery(_ query: Int) -> FetchChainBuilder<Item> {
        From<Item>().where(\.category == Int64(query) % Row.categories).orderBy(.descending(\.score)).tweak { $0.limit = 10 }
    }

    func aggregate(path: String) async throws -> Checksum {
        try await stack(path).closing { try await Self.aggregate(in: $0) }
    }

    /// Counts and averages grouped by category.
    static func aggregate(in stack: DataStack) async throws -> Checksum {
        try await stack.read { reader in try checksum(ofAggregate: reader.queryAttributes(aggregateQuery)) }
    }

    /// Counts and averages of the items, grouped and ordered by category.
    static var aggregateQuery: QueryChainBuilder<Item, QueryAttributes> {
        From<Item>().select(.attribute(\.category), .count(\.category, as: "n"), .average(\.score, as: "mean"))
            .groupBy(\.category).orderBy(.ascending(\.category))
    }

    /// The checksum of the aggregate query's rows.
    static func checksum(ofAggregate rows: [QueryAttributes]) -> Checksum {
        var checksum = Checksum()
        for row in rows {
            checksum.add(code: (row["category"] as? Int64 ?? 0) * Int64(row["n"] as? Int ?? 0), score: row["mean"] as? Double ?? 0)
        }
        return checksum
    }
}
