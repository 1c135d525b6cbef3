import Foundation
import Logging
import Synchronization
import Testing
@testable import Strata
import StrataSwiftLog

/// Collects messages for assertions.
final class RecordingLogger: StrataLogger {
    let messages = Mutex<[(LogLevel, String)]>([])

    func log(level: LogLevel, message: @autoclosure () -> String, file: StaticString, line: UInt) {
        let text = message()
        messages.withLock { $0.append((level, text)) }
    }
}

/// Keeps the error values `log(error:)` receives, and says when `assert` fails, as CoreStore
/// loggers do.
final class ErrorKeepingLogger: StrataLogger {
    let errors = Mutex<[StrataError]>([])

    func log(level: LogLevel, message: @autoclosure () -> String, file: StaticString, line: UInt) {}

    func log(error: StrataError, message: @autoclosure () -> String, file: StaticString, line: UInt) {
        errors.withLock { $0.append(error) }
    }

    func assert(_ condition: @autoclosure () -> Bool, message: @autoclosure () -> String, file: StaticString, line: UInt) {
        if !condition() { FileHandle.standardError.write(Data("asserted by the app's logger: \(message())\n".utf8)) }
    }
}

/// A place swift-log records go.
final class RecordBox: Sendable {
    let records = Mutex<[String]>([])
}

/// Collects swift-log records.
struct RecordingHandler: LogHandler {
    let box: RecordBox
    var metadata: Logging.Logger.Metadata = [:]
    var logLevel: Logging.Logger.Level = .trace

    subscript(metadataKey key: String) -> Logging.Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        box.records.withLock { $0.append("\(event.level): \(event.message)") }
    }
}

@Suite("Logging", .serialized)
struct LoggingTests {
    @Test func storagesAndRollbacksAreLogged() async throws {
        let recorder = RecordingLogger()
        let previous = StrataDefaults.logger
        StrataDefaults.logger = recorder
        defer { StrataDefaults.logger = previous }
        let stack = DataStack(Zoo.schemaHistory)
        try stack.addStorageAndWait(InMemoryStore())
        _ = try? await stack.perform { transaction in transaction.create(Into<Person>()).age = 1 }
        let messages = recorder.messages.withLock { $0 }
        #expect(messages.contains { $0.0 == .notice && $0.1 == "added InMemoryStore for configuration 'Default' of Zoo V1" })
        #expect(messages.contains { $0.0 == .warning && $0.1 == "a transaction was rolled back: 'Person.name' is required but was never given a value" })
    }

    @Test func aLoggerReceivesTheErrorValue() async throws {
        let keeper = ErrorKeepingLogger()
        let previous = StrataDefaults.logger
        StrataDefaults.logger = keeper
        defer { StrataDefaults.logger = previous }
        let stack = DataStack(Zoo.schemaHistory)
        try stack.addStorageAndWait(InMemoryStore())
        _ = try? await stack.perform { transaction in transaction.create(Into<Person>()).age = 1 }
        #expect(keeper.errors.withLock { $0 }.contains(.missingValue(entity: "Person", attribute: "name")))
    }

    @Test func aLoggerSeesFailedAssertionsBeforeTheProcessStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            StrataDefaults.logger = ErrorKeepingLogger()
            let stack = try makeStack()
            try await stack.perform { transaction in _ = transaction.create(Into<Animal>()) }
        }
        let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(printed.contains("asserted by the app's logger: Strata: 'Animal' is abstract; create one of its subentities instead"))
    }

    @Test func theSwiftLogBridgeMapsLevels() {
        let box = RecordBox()
        let bridge = SwiftLogLogger(Logging.Logger(label: "strata-test") { _ in RecordingHandler(box: box) })
        bridge.log(level: .notice, message: "hello", file: #fileID, line: #line)
        bridge.log(level: .fatal, message: "bye", file: #fileID, line: #line)
        #expect(box.records.withLock { $0 } == ["notice: hello", "critical: bye"])
    }

    @Test func theConsoleLoggerFiltersByLevel() {
        var evaluated = false
        ConsoleLogger(minimumLevel: .warning).log(level: .trace, message: { evaluated = true; return "x" }(), file: #fileID, line: #line)
        #expect(!evaluated)
    }
}
