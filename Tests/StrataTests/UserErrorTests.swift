import Foundation
import Testing
@testable import Strata

/// An error the app throws inside a transaction or a read keeps its type through every API:
/// rethrown as it was by the `async` and synchronous forms, carried in `StrataError.userError` to
/// completion handlers; and nothing of the transaction is saved.
@Suite("The app's own errors")
@MainActor
struct UserErrorTests {
    enum SyncError: Error, Equatable {
        case offline
        case rejected(reason: String)
    }

    @Test func theAsyncPerformRethrowsTheErrorItself() async throws {
        let stack = try makeStack()
        do {
            try await stack.perform { t in
                t.create(Into<Person>()).name = "Lost"
                throw SyncError.offline
            }
            Issue.record("the transaction should have thrown")
        } catch SyncError.offline {
            // CoreStore code catches its own errors like this.
        }
        await #expect(throws: SyncError.rejected(reason: "quota")) {
            _ = try await stack.perform { _ -> Int in throw SyncError.rejected(reason: "quota") }
        }
        #expect(try stack.fetchCount(From<Person>()) == 0)
    }

    @Test func theSynchronousPerformAndReadsRethrowItToo() async throws {
        let stack = try makeStack()
        #expect(throws: SyncError.offline) {
            try stack.perform(synchronous: { t in
                t.create(Into<Person>()).name = "Lost"
                throw SyncError.offline
            })
        }
        await #expect(throws: SyncError.rejected(reason: "read")) {
            _ = try await stack.read { _ -> Int in throw SyncError.rejected(reason: "read") }
        }
        #expect(try stack.fetchCount(From<Person>()) == 0)
        // Strata's own errors stay StrataErrors.
        #expect(throws: StrataError.synchronousPerformInsideTransaction) {
            try stack.perform(synchronous: { _ in try stack.perform(synchronous: { _ in }) })
        }
    }

    @Test func completionHandlersReceiveItInUserError() async throws {
        let stack = try makeStack()
        let result: Result<Int, StrataError> = await withCheckedContinuation { continuation in
            stack.perform(asynchronous: { t -> Int in
                t.create(Into<Person>()).name = "Lost"
                throw SyncError.offline
            }, completion: { continuation.resume(returning: $0) })
        }
        guard case .failure(.userError(let wrapped)) = result else {
            Issue.record("expected userError, got \(result)")
            return
        }
        #expect(wrapped.underlying as? SyncError == .offline)
        #expect(wrapped == UserError(SyncError.offline) && wrapped != UserError(SyncError.rejected(reason: "x")))
        #expect(StrataError.userError(wrapped).description == "the transaction threw: offline")
        let failure: StrataError = await withCheckedContinuation { continuation in
            stack.perform(asynchronous: { _ -> Int in throw SyncError.rejected(reason: "quota") },
                          success: { _ in Issue.record("should fail") },
                          failure: { continuation.resume(returning: $0) })
        }
        #expect(failure == .userError(UserError(SyncError.rejected(reason: "quota"))))
        #expect(try stack.fetchCount(From<Person>()) == 0)
    }
}
