import Foundation
@testable import Strata
import StrataTestSupport
import Testing

/// A unique import's own reads are not the app's: they leave objects as unread as they were, so
/// the update's setters do not report to the context's registrar.
@Suite("Import and Observation")
struct ImportObservationTests {
    @Test func aUniqueImportsOwnLookupLeavesObjectsUnread() async throws {
        let stack = DataStack(Shop.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        let sources: @Sendable (Int) -> [[String: Any]] = { balance in
            ["ann", "bob"].map { ["contact": ["email": "\($0)@example.com"], "name": $0, "balance": balance] }
        }
        try await stack.perform { transaction in
            _ = try transaction.importUniqueObjects(Into<Customer>(), sourceArray: sources(1))
        }
        let observed = try await stack.perform { transaction in
            let bob = try #require(try transaction.fetchOne(From<Customer>().where(\.email == "bob@example.com")))
            _ = bob.name
            let updated = try transaction.importUniqueObjects(Into<Customer>(), sourceArray: sources(2))
            return updated.map { customer in
                let mark = customer.isObserved  // before the accessor below marks it
                return "\(customer.name): \(mark)"
            }
        }
        #expect(observed == ["ann: false", "bob: true"])
    }
}
