import Foundation
import StrataTestSupport
import Testing
@testable import Strata

/// A stack's instrumentation hears of every transaction and read context once, with how it ended
/// and what it cost, its start's value handed back to its end.
@Suite("Instrumentation")
@MainActor
struct InstrumentationTests {
    private struct Refused: Error {}

    private func instrumentedStack() throws -> (DataStack, RecordingInstrumentation) {
        TestLog.install()
        let recorder = RecordingInstrumentation()
        let stack = DataStack(Zoo.schemaHistory, instrumentation: recorder)
        try stack.addStorageAndWait(freshStore())
        return (stack, recorder)
    }

    @Test func eachTransactionIsReportedWithHowItEnded() async throws {
        let (stack, recorder) = try instrumentedStack()
        try await stack.perform { transaction in transaction.create(Into<Person>()).name = "Ann" }
        await #expect(throws: Refused.self) { try await stack.perform { _ -> Void in throw Refused() } }
        await #expect(throws: StrataError.userCancelled) { try await stack.perform { transaction -> Void in try transaction.cancel() } }
        try stack.perform(synchronous: { transaction in transaction.create(Into<Person>()).name = "Bob" })
        let failure: StrataError? = await withCheckedContinuation { continuation in
            stack.perform(asynchronous: { transaction in
                transaction.create(Into<Person>()).name = "Cy"
            }, completion: { result in
                if case .failure(let error) = result { continuation.resume(returning: error) } else { continuation.resume(returning: nil) }
            })
        }
        #expect(failure == nil)

        let reports = recorder.transactions
        #expect(reports.map(\.report.outcome) == [.committed, .rolledBack, .rolledBack, .committed, .committed])
        #expect(reports.map(\.started) == [1, 2, 3, 4, 5])
        #expect(reports.map(\.report.attempts) == [1, 1, 1, 1, 1])
        #expect(reports.map(\.report.conflicts) == [0, 0, 0, 0, 0])
        #expect(reports[0].report.error == nil)
        #expect(reports[1].report.error == .userError(UserError(Refused())))
        #expect(reports[2].report.error == .userCancelled)
        #expect(reports.allSatisfy { $0.report.writerWait >= .zero && $0.report.duration >= $0.report.writerWait })
        #expect(try stack.fetchCount(From<Person>()) == 3)
    }

    @Test func eachReadContextIsReported() async throws {
        let (stack, recorder) = try instrumentedStack()
        try await addPeople(["Ann", "Bob"], to: stack)
        #expect(try await stack.read { reader in try reader.fetchCount(From<Person>()) } == 2)
        await #expect(throws: Refused.self) { try await stack.read { _ -> Int in throw Refused() } }
        let reads = recorder.reads
        #expect(reads.map(\.started) == [2, 3])
        #expect(reads.map(\.report.error) == [nil, .userError(UserError(Refused()))])
        #expect(reads.allSatisfy { $0.report.duration >= .zero })
        #expect(recorder.transactions.count == 1)
    }

    @Test func aStackWithoutInstrumentationReportsNothing() async throws {
        let stack = try makeStack()
        #expect(stack.instrumentation == nil)
        try await addPeople(["Ann"], to: stack)
        #expect(try await stack.read { reader in try reader.fetchCount(From<Person>()) } == 1)
    }
}
