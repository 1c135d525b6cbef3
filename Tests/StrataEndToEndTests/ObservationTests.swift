import Foundation
import Observation
import Strata
import StrataTestSupport
import Synchronization
import Testing

/// What `onChange` closures saw: how often they ran, and what they read when they did.
final class ObservedNotes: Sendable {
    private let state = Mutex<[String]>([])
    /// Records one call and what it read.
    func record(_ note: String) { state.withLock { $0.append(note) } }
    /// Every call so far, in order.
    var notes: [String] { state.withLock { $0 } }
}

/// A main-actor value an `onChange` closure (which must be `Sendable`) can read on the main actor.
@MainActor
final class Held<Value> {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Generated entities and monitors with Swift's Observation, as a SwiftUI view or
/// `withObservationTracking` uses them.
@Suite("Observation")
@MainActor
struct ObservationTests {
    /// A stack holding customers Ann and Bob, and Ann fetched into its main context.
    static func stackWithAnn(observesObjects: Bool = true) async throws -> (DataStack, Customer) {
        let stack = DataStack(Shop.schemaHistory, observesObjects: observesObjects)
        try stack.addStorageAndWait(freshStore())
        try await stack.perform { transaction in
            let ann = transaction.create(Into<Customer>())
            ann.name = "Ann"
            ann.email = "ann@example.com"
            let bob = transaction.create(Into<Customer>())
            bob.name = "Bob"
            bob.email = "bob@example.com"
        }
        return (stack, try #require(try stack.fetchOne(From<Customer>().where(\.name == "Ann"))))
    }

    /// A tracking of one property is told of a commit that changes it, and of no other.
    @Test func trackingIsPerProperty() async throws {
        let (stack, ann) = try await Self.stackWithAnn()
        let id = ann.objectID(as: Customer.self)
        let told = ObservedNotes()
        withObservationTracking { _ = ann.name } onChange: { told.record("name") }
        try await stack.perform { transaction in transaction.edit(id)?.vip = true }
        #expect(ann.vip == true)
        #expect(told.notes.isEmpty)
        try await stack.perform { transaction in transaction.edit(id)?.name = "Ann Lee" }
        #expect(told.notes == ["name"])
        #expect(ann.name == "Ann Lee")
    }

    /// The documentation's example: a tracked read, told of a commit that changes it.
    @Test func theDocumentedExampleIsTold() async throws {
        let (stack, _) = try await Self.stackWithAnn()
        let told = ObservedNotes()
        // snippet: observable
        let ann = try #require(try stack.fetchOne(From<Customer>().where(\.name == "Ann")))
        withObservationTracking {
            _ = ann.name                  // what a SwiftUI view's body reads
        } onChange: {
            told.record("name changed")   // once the commit that changes it is applied
        }
        let id = ann.objectID
        try await stack.perform { transaction in transaction.edit(id)?.name = "Ann Lee" }
        // end snippet
        #expect(told.notes == ["name changed"])
    }

    /// An observer told of a commit reads the whole commit: every property it changed.
    @Test func anObserverReadsTheWholeCommit() async throws {
        let (stack, ann) = try await Self.stackWithAnn()
        let id = ann.objectID(as: Customer.self)
        let told = ObservedNotes()
        withObservationTracking { _ = ann.name } onChange: {
            MainActor.assumeIsolated {
                let live = stack.fetchExisting(id)
                told.record("\(live?.name ?? "-") \(live?.email ?? "-")")
            }
        }
        try await stack.perform { transaction in
            let ann = try #require(transaction.edit(id))
            ann.name = "Ann Lee"
            ann.email = "lee@example.com"
        }
        #expect(told.notes == ["Ann Lee lee@example.com"])
    }

    /// A change to an object nobody read through its accessors tells no tracking of another.
    @Test func aChangeToAnUnreadObjectTellsNoOne() async throws {
        let (stack, ann) = try await Self.stackWithAnn()
        let told = ObservedNotes()
        withObservationTracking { _ = ann.name } onChange: { told.record("name") }
        try await stack.perform { transaction in
            try transaction.fetchOne(From<Customer>().where(\.email == "bob@example.com"))?.name = "Robert"
        }
        #expect(told.notes.isEmpty)
        #expect(try stack.fetchCount(From<Customer>().where(\.name == "Robert")) == 1)
    }

    /// Commits of another stack on the same store reach the main context's observers.
    @Test(.sqliteOnly("two stacks on one file; the PostgreSQL suite covers other servers"))
    func anotherStacksCommitIsObserved() async throws {
        let folder = TestFolders.url("strata-observation")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try sharedStore(file: folder.appendingPathComponent("Shop.sqlite"))
        let stack = DataStack(Shop.schemaHistory, externalCommitCheckInterval: .milliseconds(10))
        try stack.addStorageAndWait(store())
        let other = DataStack(Shop.schemaHistory)
        try other.addStorageAndWait(store())
        try await other.perform { transaction in
            let ann = transaction.create(Into<Customer>())
            ann.name = "Ann"
            ann.email = "ann@example.com"
        }
        let ann = try #require(try stack.fetchOne(From<Customer>()))
        let id = ann.objectID(as: Customer.self)
        var updates = try stack.monitorObject(id).updates.makeAsyncIterator()
        let told = ObservedNotes()
        withObservationTracking { _ = ann.name } onChange: {
            MainActor.assumeIsolated { told.record(stack.fetchExisting(id)?.name ?? "-") }
        }
        try await other.perform { transaction in transaction.edit(id)?.name = "Ann Lee" }
        #expect(try await updates.next() == .updated(changedProperties: ["name"]))
        #expect(told.notes == ["Ann Lee"])
    }

    /// To-one and to-many relationships are observable, the inverse side too.
    @Test func relationshipsAreObservable() async throws {
        let (stack, ann) = try await Self.stackWithAnn()
        let annID = ann.objectID(as: Customer.self)
        try await stack.perform { transaction in
            let order = transaction.create(Into<Order>())
            order.number = 1
        }
        let order = try #require(try stack.fetchOne(From<Order>()))
        let orderID = order.objectID
        let told = ObservedNotes()
        withObservationTracking { _ = ann.orders } onChange: { told.record("orders") }
        withObservationTracking { _ = order.customer } onChange: { told.record("customer") }
        try await stack.perform { transaction in
            transaction.edit(orderID)?.customer = transaction.edit(annID)
        }
        #expect(Set(told.notes) == ["orders", "customer"])
        #expect(ann.orders.map(\.number) == [1])
        #expect(order.customer?.name == "Ann")
    }

    /// A deletion is observable through `isDeleted`.
    @Test func aDeletionIsObservable() async throws {
        let (stack, ann) = try await Self.stackWithAnn()
        let id = ann.objectID(as: Customer.self)
        let told = ObservedNotes()
        let held = Held(ann)
        withObservationTracking { _ = ann.isDeleted } onChange: {
            MainActor.assumeIsolated { told.record("deleted \(held.value.isDeleted)") }
        }
        try await stack.perform { transaction in transaction.delete(transaction.edit(id)) }
        #expect(told.notes == ["deleted true"])
    }

    /// What a tracking of a new product's `stock` is told inside its transaction, as its
    /// `views` and then its `stock` are set.
    static func notesOfTrackedStock(observesObjects: Bool = true) async throws -> [String] {
        let stack = DataStack(Shop.schemaHistory, observesObjects: observesObjects)
        try stack.addStorageAndWait(freshStore())
        return try await stack.perform { transaction in
            let told = ObservedNotes()
            let product = transaction.create(Into<Product>())
            product.sku = "W-1"
            withObservationTracking { _ = product.stock } onChange: { told.record("stock") }
            product.views = 3
            product.stock = 5
            return told.notes
        }
    }

    /// Objects of a transaction are observable inside it: a setter tells the tracking at once.
    @Test func transactionObjectsAreObservable() async throws {
        #expect(try await Self.notesOfTrackedStock() == ["stock"])
    }

    /// List and object monitors are observable: a view reading `objects` is told when the list
    /// changes, one reading `object` when it is updated or deleted.
    @Test func monitorsAreObservable() async throws {
        let (stack, ann) = try await Self.stackWithAnn()
        let id = ann.objectID(as: Customer.self)
        let list = try stack.monitorList(From<Customer>().orderBy(.ascending(\.name)))
        let single = try stack.monitorObject(id)
        let told = ObservedNotes()
        withObservationTracking { _ = list.objects } onChange: { told.record("objects") }
        withObservationTracking { _ = list.numberOfObjects } onChange: { told.record("count") }
        withObservationTracking { _ = single.object } onChange: { told.record("object") }
        #expect(list.objects.map(\.name) == ["Ann", "Bob"])
        try await stack.perform { transaction in
            let cy = transaction.create(Into<Customer>())
            cy.name = "Cy"
            cy.email = "cy@example.com"
        }
        #expect(Set(told.notes) == ["objects", "count"])
        withObservationTracking { _ = single.isDeleted } onChange: { told.record("isDeleted") }
        try await stack.perform { transaction in transaction.delete(transaction.edit(id)) }
        #expect(single.isDeleted)
        #expect(Set(told.notes) == ["objects", "count", "object", "isDeleted"])
    }
}
