import Foundation

/// The rows every contender writes and reads: deterministic, so results can be compared.
struct Row: Sendable {
    let code: Int64
    let name: String
    let score: Double
    let category: Int64
    let createdAt: Date

    static let count = scaled(100_000)
    static let categories: Int64 = 100
    static let smallQueries = 2_000

    static func make(_ index: Int) -> Row {
        Row(code: Int64(index), name: "item-\(index)", score: Double((index * 7919) % 10_007) / 10,
            category: Int64(index) % categories, createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)))
    }

    static let all: [Row] = (0..<count).map(make)
}

/// What a workload returns, compared across contenders so none can win by doing less.
struct Checksum: Equatable, CustomStringConvertible {
    var rows = 0
    var scoreSum = 0.0
    var codeSum: Int64 = 0

    mutating func add(code: Int64, score: Double) {
        rows += 1
        scoreSum += score
        codeSum &+= code
    }

    static func == (lhs: Checksum, rhs: Checksum) -> Bool {
        lhs.rows == rhs.rows && lhs.codeSum == rhs.codeSum && abs(lhs.scoreSum - rhs.scoreSum) < 1e-6 * max(1, abs(lhs.scoreSum))
    }

    var description: String { "rows=\(rows) codeSum=\(codeSum) scoreSum=\(scoreSum)" }
}

/// A fresh database path in a folder emptied after each workload and removed at exit.
enum Scratch {
    static let folder: URL = {
        removeFoldersOfEndedRuns()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-bench-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Removes the folders of runs whose process is gone: a run that crashed or was killed
    /// cannot empty its own, so the next run does.
    private static func removeFoldersOfEndedRuns() {
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix("strata-bench-") {
            guard let pid = Int32(name.dropFirst("strata-bench-".count)), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }

    /// A new database path in the folder (made again if a workload's end cleaned it).
    static func path(_ name: String) -> String {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("\(name)-\(UUID().uuidString).sqlite")
        return url.path
    }

    /// Removes the folder and everything in it.
    static func clean() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Removes what a workload left in the folder, but for the databases at `kept` (each with its
    /// `-wal` and `-shm`), which later workloads read.
    static func clean(keeping kept: [String]) {
        let keptNames = kept.map { URL(fileURLWithPath: $0).lastPathComponent }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where !keptNames.contains(where: name.hasPrefix) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }
}
