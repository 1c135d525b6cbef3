import Foundation
import StrataTestSupport
import Testing
@testable import Strata

/// Observation costs nothing per fetched object: the registrar belongs to the context, and
/// nothing is recorded for objects whose accessors nobody read.
@Suite("Observation cost")
@MainActor
struct ObservationCostTests {
    @Test func fetchedObjectsShareTheirContextsRegistrar() async throws {
        let stack = try makeStack()
        try await stack.perform { transaction in
            for index in 0..<1_000 { transaction.create(Into<Person>()).name = "P\(index)" }
        }
        let people = try stack.fetchAll(From<Person>())
        #expect(people.count == 1_000)
        #expect(Set(people.compactMap { $0.token?.registrar }).count == 1)
        #expect(!people.contains { $0.isObserved })
        _ = people[0].isDeleted
        #expect(people[0].isObserved)
        #expect(people.dropFirst().allSatisfy { !$0.isObserved })
    }
}
