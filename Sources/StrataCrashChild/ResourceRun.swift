import Foundation
import Strata
import StrataTesting

/// `stacks PATH N` and `stream PATH N`: resource use measured in a process of its own, so that
/// what it measures (open file descriptors, resident memory) is the stacks' alone.
@MainActor
enum ResourceRun {
    static func openAndClose(_ count: Int, at url: URL) async throws -> String {
        try open(url)
        // A first round warms caches the process keeps anyway.
        for _ in 0..<200 { try open(url) }
        let descriptors = try openDescriptors()
        let memory = try residentKiB()
        for _ in 0..<count { try open(url) }
        return "\(descriptors) \(try openDescriptors()) \(try residentKiB() - memory)"
    }

    /// Seeds `count` entries, then reads every one with `fetchEach` in a read context: returns the
    /// rows read and how much resident memory the reading added.
    static func stream(_ count: Int, at url: URL) async throws -> String {
        try StoreSeeding.seedStore(at: url, history: Ledger.schemaHistory, version: "V1", objects: (1...count).map {
            SeedObject("Entry", id: Int64($0), ["commit": Int64($0), "amount": Int64($0 % 1_000)])
        })
        let stack = DataStack(Ledger.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: url))
        // A first, short read warms what the process keeps anyway (statements, page cache).
        _ = try await stack.read { reader in try reader.fetchAll(From<Entry>().tweak { $0.limit = 2_000 }).count }
        let memory = try residentKiB()
        let rows = try await stack.read { reader in
            var rows = 0
            try reader.fetchEach(From<Entry>().orderBy(.ascending(\.commit))) { entry in
                if entry.commit > 0 { rows += 1 }
            }
            return rows
        }
        return "\(rows) \(try residentKiB() - memory)"
    }

    /// Lowers the process's limit on open files to 64, then keeps stacks open on `url` until one
    /// cannot be added: returns that error's description.
    static func exhaustDescriptors(at url: URL) async -> String {
        // libdispatch opens its event loop's descriptors on first use and traps if it cannot:
        // start it while descriptors are plentiful.
        await withCheckedContinuation { continuation in
            DispatchQueue.global().asyncAfter(deadline: .now()) { continuation.resume() }
        }
        var limit = rlimit(rlim_cur: 64, rlim_max: 64)
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = 64
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        var stacks: [DataStack] = []
        do {
            for _ in 0..<1_000 {
                let stack = DataStack(Ledger.schemaHistory)
                try stack.addStorageAndWait(SQLiteStore(fileURL: url))
                stacks.append(stack)
            }
            return "all \(stacks.count) stacks opened"
        } catch {
            stacks.removeAll()
            return "\(error)"
        }
    }

    private static func open(_ url: URL) throws {
        let stack = DataStack(Ledger.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: url))
        _ = try stack.fetchCount(From<Account>())
    }

    private static func openDescriptors() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
    }

    private static func residentKiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
