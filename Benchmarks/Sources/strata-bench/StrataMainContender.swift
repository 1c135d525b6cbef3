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

    static func stack(_ path: String) throws -> DataStack {
        let stack = DataStack(Bench.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: URL(fileURLWithPath: path)))
        return stack
    }

    func insert(_ rows: [Row], path: String) async throws -> Checksum {
        try await Self.stack(path).closing { try await StrataContender.insert(rows, into: $0) }
    }

    func importUnique(_ input: ImportInput, path: String) async throws -> Checksum {
        try await Self.stack(path).closing { try StrataContender.importUnique(input, into: $0) }
    }

    func fetchAll(path: String) async throws -> Checksum {
        try await Self.stack(path).closing { try await Self.fetchAll(in: $0) }
    }

    /// Every item, in the main context.
    @MainActor
    static func fetchAll(in stack: DataStack) throws -> Checksum {
        var checksum = Checksum()
        for item in try stack.fetchAll(From<Item>()) { checksum.add(code: item.code, score: item.score) }
        return checksum
    }

    func smallQueries(path: String) async throws -> Checksum {
        try await Self.stack(path).closing { try await Self.smallQueries(in: $0) }
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
        try await Self.stack(path).closing { try await Self.aggregate(in: $0) }
    }

    /// Counts and averages grouped by category, in the main context.
    @MainActor
    static func aggregate(in stack: DataStack) throws -> Checksum {
        try StrataContender.checksum(ofAggregate: stack.queryAttributes(StrataContender.aggregateQuery))
    }
}

/// `fetch` in the main context of one stack kept from round to round, as an app keeps its stack:
/// from the second round on, the fetch finds its objects registered in the main context's identity
/// map and reuses them (what a list screen that fetches again costs), where `strata-main` opens a
/// new stack each round and reads every object afresh.
struct StrataMainKeptContender: Contender {
    let name = "strata-main-kept"

    func takesPart(in workload: String) -> Bool { workload == "fetch" }

    /// The stack of each database, opened at its first fetch.
    @MainActor private static var stacks: [String: DataStack] = [:]

    @MainActor
    private static func stack(_ path: String) throws -> DataStack {
        if let stack = stacks[path] { return stack }
        let stack = try StrataMainContender.stack(path)
        stacks[path] = stack
        return stack
    }

    /// Closes the kept stacks (the run is over).
    @MainActor
    static func closeStacks() async {
        for stack in stacks.values { await stack.close() }
        stacks.removeAll()
    }

    /// The main context's fetch, through the kept stack.
    func fetchAll(path: String) async throws -> Checksum {
        try await MainActor.run { try StrataMainContender.fetchAll(in: Self.stack(path)) }
    }

    // The other workloads are `strata-main`'s (only the read database is made through them).
    func insert(_ rows: [Row], path: String) async throws -> Checksum { try await StrataMainContender().insert(rows, path: path) }
    func importUnique(_ input: ImportInput, path: String) async throws -> Checksum { try await StrataMainContender().importUnique(input, path: path) }
    func smallQueries(path: String) async throws -> Checksum { try await StrataMainContender().smallQueries(path: path) }
    func aggregate(path: String) async throws -> Checksum { try await StrataMainContender().aggregate(path: path) }
}
