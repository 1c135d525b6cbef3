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

    @Test func eachReadIsReported() async throws {
        let (stack, recorder) = try instrumentedStack()
        try await addPeople(["Ann", "Bob"], to: stack)
        #expect(try await stack.read { reader in try reader.fetchCount(From<Person>()) } == 2)
        await #expect(throws: Refused.self) { try await stack.read { _ -> Int in throw Refused() } }
        #expect(try stack.fetchAll(From<Person>()).count == 2)
        #expect(try stack.fetchOne(From<Person>().where(\.name == "Bob"))?.name == "Bob")
        #expect(try stack.fetchCount(From<Person>(), Where<Person>(\.age > 10)) == 1)
        #expect(try stack.fetchObjectIDs(From<Person>()).count == 2)
        #expect(try stack.queryValue(From<Person>().select(Int16.self, .maximum(\.age))) == 20)
        #expect(try stack.queryAttributes(From<Person>().select(.attribute(\.name))).count == 2)
        var names: [String] = []
        try stack.fetchEach(From<Person>().orderBy(.ascending(\.name))) { names.append($0.name) }
        #expect(throws: Refused.self) { try stack.fetchEach(From<Person>()) { _ in throw Refused() } }

        let reads = recorder.reads
        #expect(reads.map(\.report.kind) == [.readContext, .readContext] + Array(repeating: .mainContext, count: 8))
        #expect(reads.map(\.started) == Array(2...11))
        #expect(reads.prefix(2).map(\.report.error) == [nil, .userError(UserError(Refused()))])
        #expect(reads.dropFirst(2).prefix(7).allSatisfy { $0.report.error == nil })
        #expect(reads[9].report.error == .userError(UserError(Refused())))
        #expect(names == ["Ann", "Bob"])
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
