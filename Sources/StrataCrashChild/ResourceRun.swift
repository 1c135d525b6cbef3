import Foundation
import Strata

/// `stacks PATH N`: opens and closes N stacks on one store in a process of its own, so that what
/// it measures (open file descriptors, resident memory) is the stacks' alone.
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
