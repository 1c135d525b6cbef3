import Foundation
import Observation
import Strata
import StrataTestSupport
import Testing

/// A stack made with `observesObjects: false`: its objects never report to Observation, so a
/// tracking of them is told nothing, while they still hold every commit and monitors stay
/// observable.
@Suite("A stack that does not observe its objects")
@MainActor
struct UnobservedStackTests {
    @Test func mainContextObjectsTellNoTrackingButHoldTheCommit() async throws {
        let (stack, ann) = try await ObservationTests.stackWithAnn(observesObjects: false)
        let id = ann.objectID(as: Customer.self)
        let list = try stack.monitorList(From<Customer>().orderBy(.ascending(\.name)))
        let told = ObservedNotes()
        withObservationTracking { _ = ann.name } onChange: { told.record("name") }
        withObservationTracking { _ = ann.isDeleted } onChange: { told.record("isDeleted") }
        withObservationTracking { _ = list.objects } onChange: { told.record("objects") }
        try await stack.perform { transaction in transaction.edit(id)?.name = "Ann Lee" }
        #expect(ann.name == "Ann Lee")
        #expect(told.notes == ["objects"])
    }

    @Test func transactionObjectsTellNoTracking() async throws {
        #expect(try await ObservationTests.notesOfTrackedStock(observesObjects: false).isEmpty)
    }
}
