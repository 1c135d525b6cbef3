import Foundation
import Synchronization

/// The `strata-crash-child` executable the crash tests run and kill, built beside the tests.
///
/// Waiting for a child (its output, its exit) blocks a thread for as long as the child runs, so
/// every wait here runs on a thread of its own: on Linux Swift's tasks share a thread per core,
/// and two crash tests waiting on them would stall every other test of the process.
public enum CrashChild {
    /// Taken around every launch (see ``launch(_:temporaryFolder:errors:environment:)``).
    private static let launching = Mutex(())

    public static let executable: URL? = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("strata-crash-child")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return nil
    }()

    /// How many rounds a crash test runs: `STRATA_CRASH_ROUNDS`, or `defaultRounds`.
    public static func rounds(default defaultRounds: Int) -> Int {
        ProcessInfo.processInfo.environment["STRATA_CRASH_ROUNDS"].flatMap(Int.init) ?? defaultRounds
    }

    /// Starts the child; its standard output is piped back.
    /// `temporaryFolder`, if given, is the child's `TMPDIR`; `errors`, if given, a file its
    /// standard error is appended to (for a test to show why a child failed).
    /// `environment` is added to the child's.
    public static func launch(_ arguments: [String], temporaryFolder: URL? = nil, errors: URL? = nil,
                       environment: [String: String] = [:]) throws -> (process: Process, output: Pipe) {
        guard let executable else { throw CrashChildError.notBuilt }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var added = environment
        if let temporaryFolder { added["TMPDIR"] = temporaryFolder.path }
        if !added.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(added) { $1 }
        }
        let output = Pipe()
        process.standardOutput = output
        if let errors {
            if !FileManager.default.fileExists(atPath: errors.path) { _ = FileManager.default.createFile(atPath: errors.path, contents: nil) }
            let handle = try FileHandle(forWritingTo: errors)
            handle.seekToEndOfFile()
            process.standardError = handle
        } else {
            process.standardError = FileHandle.nullDevice
        }
        // One launch at a time in the process: Foundation's Process.run copies the environment and
        // file actions, and two tests launching children at once crashed in it once.
        try launching.withLock { _ in try process.run() }
        return (process, output)
    }

    /// Runs the child to the end; returns what it printed, trimmed.
    public static func run(_ arguments: [String], temporaryFolder: URL? = nil, errors: URL? = nil,
                    environment: [String: String] = [:]) async throws -> String {
        let child = try launch(arguments, temporaryFolder: temporaryFolder, errors: errors, environment: environment)
        return await readToEnd(child).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What the child prints from now until it exits, once it has exited.
    public static func readToEnd(_ child: (process: Process, output: Pipe)) async -> String {
        let (process, output) = (child.process, child.output)
        return (try? await onItsOwnThread {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }) ?? ""
    }

    /// What the child prints until its output contains `marker` (or ends). A child that neither
    /// prints it nor exits within `patience` is killed, so that a hang fails the test (with what
    /// the child printed) instead of stopping the run; no passing run comes near the bound.
    public static func read(_ child: (process: Process, output: Pipe), until marker: String, patience: Duration = .seconds(300)) async -> String {
        let output = child.output
        let process = child.process
        let watchdog = DispatchWorkItem { if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(patience.components.seconds * 1000)), execute: watchdog)
        defer { watchdog.cancel() }
        return (try? await onItsOwnThread {
            var printed = ""
            while !printed.contains(marker), case let data = output.fileHandleForReading.availableData, !data.isEmpty {
                printed += String(decoding: data, as: UTF8.self)
            }
            return printed
        }) ?? ""
    }

    /// Kills the child with SIGKILL and waits for it to be gone.
    public static func kill(_ child: (process: Process, output: Pipe)) async {
        let process = child.process
        Foundation.kill(process.processIdentifier, SIGKILL)
        _ = try? await onItsOwnThread { process.waitUntilExit() }
    }
}

public enum CrashChildError: Error, CustomStringConvertible {
    case notBuilt
    public var description: String { "strata-crash-child was not found beside the tests; it is built with the package" }
}
