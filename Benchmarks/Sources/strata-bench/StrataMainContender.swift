import Foundation
import Strata

/// Strata's read workloads in the main context (`stack.fetchAll` on the main actor), as an app that
/// fetches for its UI does: objects that are registered in the context's identity map and report
/// reads to Observation. Inserts and imports are `strata`'s, so it takes no part in those.
struct StrataMainContender: Contender {
    let name = "strata-main"

    func takesPart(in workload: String) -> Bool {
        ["fetch", "small-queries", "aggregate"].contains(workload)
    }

    private func stack(_ path: String) throws -> DataStack {
        let stack = DataStack(Bench.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: URL(fileURLWithPath: path)))
        return stack
    }

    func insert(_ rows: [Row], path: String) async throws -> Checksum {
        try await StrataContender.insert(rows, into: stack(path))
    }

    func importUnique(_ input: ImportInput, path: String) throws -> Checksum {
        try StrataContender.importUnique(input, into: stack(path))
    }

    func fetchAll(path: String) async throws -> Checksum {
        try await Self.fetchAll(in: stack(path))
    }

    /// Every item, in the main context.
    @MainActor
    static func fetchAll(in stack: DataStack) throws -> Checksum {
        var checksum = Checksum()
        for item in try stack.fetchAll(From<Item>()) { checksum.add(code: item.code, score: item.score) }
        return checksum
    }

    func smallQueries(path: String) async throws -> Checksum {
        try await Self.smallQueries(in: stack(path))
    }

    /// 2,000 indexed queries of ten items each, in the main context.
    @MainActor
    static func smallQueries(in stack: DataStack) throws -> Checksum {
        var checksum = Checksum()
        for query in 0..<Row.smallQueries {
            for item in try stack.fetchAll(StrataContender.smallQuery(query)) { checksum.add(code: item.code, score: item.score) }
        }
        return checksum
    }

    func aggregate(path: String) async throws -> Checksum {
        try await Self.aggregate(in: stack(path))
    }

    /// Counts and averages grouped by category, in the main context.
    @MainActor
    static func aggregate(in stack: DataStack) throws -> Checksum {
        try StrataContender.checksum(ofAggregate: stack.queryAttributes(StrataContender.aggregateQuery))
    }
}
