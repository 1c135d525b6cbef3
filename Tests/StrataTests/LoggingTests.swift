import Foundation
import Logging
import Synchronization
import Testing
@testable import Strata
import StrataSwiftLog
import StrataTestSupport

/// Says when `assert` fails, as CoreStore loggers do.
final class AssertingLogger: StrataLogger {
    func log(level: LogLevel, message: @autoclosure () -> String, file: StaticString, line: UInt) {}

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
        let stack = try makeStack()
        _ = try? await stack.perform { transaction in transaction.create(Into<Person>()).age = 1 }
        if TestBackend.current == .sqlite {
            // On PostgreSQL the line names the test's database, a new one each run.
            #expect(TestLog.shared.contains(.notice, "added InMemoryStore for configuration 'Default' of Zoo V1"))
        }
        #expect(TestLog.shared.contains(.warning, "a transaction was rolled back: 'Person.name' is required but was never given a value"))
        #expect(TestLog.shared.contains(error: .missingValue(entity: "Person", attribute: "name")))
    }

    @Test func theConsoleLoggerWritesWarningsAndAboveUnlessAskedForMore() {
        #expect(ConsoleLogger().minimumLevel == .warning)
        #expect(ConsoleLogger(minimumLevel: .notice).minimumLevel == .notice)
    }

    @Test(.sqliteOnly("a trap, checked in a child process (which would start a server of its own); it comes before any SQL"))
    func aLoggerSeesFailedAssertionsBeforeTheProcessStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestLog.install()
            StrataDefaults.logger = AssertingLogger()
            let stack = DataStack(Zoo.schemaHistory)
            try stack.addStorageAndWait(InMemoryStore())
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
