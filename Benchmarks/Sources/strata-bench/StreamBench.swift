import CBenchSQLite
import Foundation
import Strata

// `stream-1m`: read 1,000,000 rows once, measuring time and how much the process's peak resident
// memory rises while reading. Strata's `fetchEach` (objects let go as it reads) is compared with
// Strata's `fetchAll` (every object held) and with raw SQLite stepping (nothing held).

enum StreamBench {
    static let workload = "stream-1m"
    static let rows = scaled(1_000_000)
    static let contenders = ["strata", "strata-fetchall", "raw"]

    /// A store of `rows` items written by Strata in batches, so seeding itself stays small.
    static func seed() async throws -> String {
        let path = Scratch.path("stream")
        let stack = DataStack(Bench.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: URL(fileURLWithPath: path)))
        try await stack.closing { stack in
            for start in stride(from: 0, to: rows, by: 100_000) {
                try await stack.perform { transaction in
                    for index in start..<min(start + 100_000, rows) {
                        StrataContender.fill(transaction.create(Into<Item>()), from: Row.make(index))
                    }
                }
            }
        }
        return path
    }

    /// Reads every row as `contender` does; returns the checksum.
    static func run(_ contender: String, path: String) async throws -> Checksum {
        switch contender {
        case "raw":
            var database: OpaquePointer?
            sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY, nil)
            defer { sqlite3_close(database) }
            var statement: OpaquePointer?
            sqlite3_prepare_v2(database, "SELECT \"code\", \"name\", \"score\" FROM \"Item\"", -1, &statement, nil)
            defer { sqlite3_finalize(statement) }
            var checksum = Checksum()
            while sqlite3_step(statement) == SQLITE_ROW {
                let name = String(cString: sqlite3_column_text(statement, 1))
                if !name.isEmpty { checksum.add(code: sqlite3_column_int64(statement, 0), score: sqlite3_column_double(statement, 2)) }
            }
            return checksum
        default:
            let stack = DataStack(Bench.schemaHistory)
            try stack.addStorageAndWait(SQLiteStore(fileURL: URL(fileURLWithPath: path)))
            let holdsAll = contender == "strata-fetchall"
            return try await stack.closing { try await $0.read { reader in
                var checksum = Checksum()
                if holdsAll {
                    for item in try reader.fetchAll(From<Item>()) where !item.name.isEmpty { checksum.add(code: item.code, score: item.score) }
                } else {
                    try reader.fetchEach(From<Item>()) { item in
                        if !item.name.isEmpty { checksum.add(code: item.code, score: item.score) }
                    }
                }
                return checksum
            } }
        }
    }

    /// Resets the process's peak resident memory to its current size (Linux `clear_refs` 5).
    static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    /// `VmRSS` and `VmHWM` (the peak since the last reset) of this process, in KiB.
    static func memory() -> (resident: Int, peak: Int) {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Int {
            let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return (field("VmRSS"), field("VmHWM"))
    }
}
