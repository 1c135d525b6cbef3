import Foundation

/// Where the servers under test keep their data: SQLite files, or, when `STRATA_POSTGRES_URL`
/// names a PostgreSQL database (`Scripts/with-postgres.sh` starts a throwaway server), a new
/// database on that server for each test.
enum TestBackend {
    static let postgresURL = ProcessInfo.processInfo.environment["STRATA_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    static var isPostgreSQL: Bool { postgresURL != nil }

    /// A fresh database for one test (nil on SQLite, where each server's folder is fresh).
    static func newDatabase() throws -> String? {
        guard let url = postgresURL else { return nil }
        let name = "petserver_\(UUID().uuidString.prefix(8).lowercased())"
        try psql(url, "CREATE DATABASE \(name)")
        guard let range = url.range(of: #"/[A-Za-z0-9_]+(?=\?|$)"#, options: .regularExpression, range: url.range(of: "@")!.upperBound..<url.endIndex) else {
            throw BackendFailed(description: "cannot find the database name in \(url)")
        }
        return url.replacingCharacters(in: range, with: "/\(name)")
    }

    /// Runs one statement with `psql`.
    static func psql(_ url: String, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", sql]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BackendFailed(description: "psql failed: \(sql)") }
    }

    struct BackendFailed: Error, CustomStringConvertible {
        let description: String
    }
}
