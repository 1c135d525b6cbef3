import Foundation
import Testing

/// A `PetServer` process started by a test, as an operator starts it: the built executable in a
/// folder of its own (where its SQLite store lives), `--port 0`, `DATABASE_URL` for PostgreSQL.
/// Its output goes to a file, whose "listening on" line says the port.
final class ServerProcess: Sendable {
    let process: Process
    let folder: URL
    let baseURL: URL
    let output: URL
    /// Whether this process made the folder (and deletes it when done).
    private let ownsFolder: Bool

    /// Starts a server on `database` (a `postgres://` URL) or, when nil, on SQLite in `folder`
    /// (a new temporary folder unless given, so that a second server can share a file).
    init(database: String?, folder: URL? = nil, arguments: [String] = []) throws {
        ownsFolder = folder == nil
        let folder = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("petserver-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.folder = folder
        output = folder.appendingPathComponent("server-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: output.path, contents: nil) else { throw ServerFailed(output: "cannot create \(output.path)") }
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["--port", "0"] + arguments
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = database ?? ""
        process.environment = environment
        let log = try FileHandle(forWritingTo: output)
        process.standardOutput = log
        process.standardError = log
        try process.run()
        self.process = process
        baseURL = try Self.waitForPort(in: output, process: process)
    }

    deinit {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        if ownsFolder { try? FileManager.default.removeItem(at: folder) }
    }

    /// The `PetServer` executable the package built beside this test bundle.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("PetServer")
    }

    /// Reads the server's output until it says where it listens (up to 60 s, for a cold start).
    private static func waitForPort(in output: URL, process: Process) throws -> URL {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("PetServer listening on ") }),
               let address = line.dropFirst("PetServer listening on ".count).split(separator: " ").first {
                return URL(string: "http://\(address)")!
            }
            guard process.isRunning else { throw ServerFailed(output: text) }
            usleep(20_000)
        }
        throw ServerFailed(output: "no 'listening on' line within 60 s")
    }

    /// The server's output so far.
    var log: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    /// Sends SIGTERM and waits for the process to end; returns its exit status.
    func terminate() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }

    struct ServerFailed: Error, CustomStringConvertible {
        let output: String
        var description: String { "PetServer did not start: \(output)" }
    }
}
