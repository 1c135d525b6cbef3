import Foundation
import Strata
import StrataTestSupport
import Testing

/// `Patch<Entity>`: create and update bodies, absent apart from null, applied in a transaction,
/// with every problem named at once.
@Suite("Patches")
@MainActor
struct PatchTests {
    private func patch<Entity>(_ json: String, as type: Entity.Type = Entity.self) throws -> Patch<Entity> {
        try JSONDecoder().decode(Patch<Entity>.self, from: Data(json.utf8))
    }

    private func shop() throws -> DataStack {
        let stack = DataStack(Shop.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        return stack
    }

    @Test func aRouteReadsABodyAndAnswersASnapshot() async throws {
        let stack = try shop()
        // snippet: wire
        // A create route: the body is a Patch, the answer a snapshot.
        func createOrder(body: Data, in stack: DataStack) async throws -> Data {
            let patch = try JSONDecoder().decode(Patch<Order>.self, from: body)  // one PayloadError names every bad field
            let created = try await stack.perform { transaction in
                Order.Snapshot(try patch.create(in: transaction))               // a missing required attribute is named
            }
            return try JSONEncoder().encode(created)                            // {"objectID":1,"number":7,...}
        }
        // end snippet
        let answer = try await createOrder(body: Data(#"{"number": 7}"#.utf8), in: stack)
        let fields = try #require(try JSONSerialization.jsonObject(with: answer) as? [String: Any])
        #expect(fields["number"] as? Int == 7)
        #expect((fields["objectID"] as? Int).map { $0 > 0 } == true, "the row id")
        await #expect(throws: PayloadError(problems: [.init(field: "number", reason: "must be a whole number from -9223372036854775808 to 9223372036854775807, found text")])) {
            try await createOrder(body: Data(#"{"number": "seven"}"#.utf8), in: stack)
        }
    }

    @Test func aPatchIsReadAndBuiltThroughKeyPaths() throws {
        let body = Data(#"{"total": 12.5}"#.utf8)
        // snippet: wire-patch
        let patch = try JSONDecoder().decode(Patch<Order>.self, from: body)
        if case .set(let total) = patch.total { print("new total", total) }
        var built = Patch<Order>()
        built.note = .set("by phone")
        // end snippet
        #expect(patch.total == .set(12.5) && built.note == .set("by phone"))
    }

    /// The generated document, with a server's own paths added as the article shows.
    @Test func theGeneratedDocumentTakesAServersPaths() throws {
        // snippet: wire-openapi
        var document = try JSONSerialization.jsonObject(with: Data(Shop.openAPIDocument.utf8)) as! [String: Any]
        document["paths"] = ["/orders/{id}": ["get": ["responses": ["200": ["description": "An order",
            "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Order"]]]]]]]]
        // end snippet
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        #expect(schemas["Order"] != nil && schemas["OrderPatch"] != nil && document["paths"] != nil)
    }

    @Test func absentNullAndSetStayApart() throws {
        let patch = try patch(#"{"note": null, "total": 12.5}"#, as: Order.self)
        #expect(patch.note == .null)
        #expect(patch.total == .set(12.5))
        #expect(patch.number == .absent)
        #expect(patch.givenNames == ["total", "note"])
        #expect(try self.patch("{}", as: Order.self).isEmpty)
    }

    @Test func createNeedsEveryRequiredAttributeAndNamesTheMissingOnes() async throws {
        let stack = try shop()
        let refused = try patch(#"{"total": 3}"#, as: Order.self)
        await #expect(throws: PayloadError(problems: [.init(field: "number", reason: "is missing")])) {
            try await stack.perform { transaction in _ = try refused.create(in: transaction) }
        }
        #expect(try stack.fetchCount(From<Order>()) == 0)
        let customer = try patch(#"{"vip": true}"#, as: Customer.self)
        await #expect(throws: PayloadError(problems: [.init(field: "name", reason: "is missing"), .init(field: "email", reason: "is missing")])) {
            try await stack.perform { transaction in _ = try customer.create(in: transaction) }
        }
        let accepted = try patch(#"{"number": 7, "note": "by phone"}"#, as: Order.self)
        let created = try await stack.perform { transaction in Order.Snapshot(try accepted.create(in: transaction)) }
        #expect(created.number == 7)
        #expect(created.note == "by phone")
        #expect(created.total == 0, "the model's default")
    }

    @Test func applyChangesOnlyTheGivenFieldsAndNullClears() async throws {
        let stack = try shop()
        let id = try await stack.perform { transaction in
            let order = transaction.create(Into<Order>())
            order.number = 1
            order.total = 5
            order.note = "first"
            return order.objectID
        }
        let patch = try patch(#"{"note": null, "total": 9.25}"#, as: Order.self)
        let after = try await stack.perform { transaction in
            let order = try #require(transaction.fetchExisting(id))
            try patch.apply(to: order)
            return Order.Snapshot(order)
        }
        #expect(after.number == 1)
        #expect(after.total == 9.25)
        #expect(after.note == nil)
    }

    @Test func aPatchBuiltInCodeAppliesAsADecodedOne() async throws {
        let stack = try shop()
        var patch = Patch<Order>()
        patch.number = .set(3)
        patch.note = .set("built")
        patch.total = .set(1)
        patch.total = .absent
        #expect(patch.givenNames == ["number", "note"])
        let built = patch
        let made = try await stack.perform { transaction in Order.Snapshot(try built.create(in: transaction)) }
        #expect(made.number == 3 && made.note == "built" && made.total == 0)
    }

    @Test func everyBadFieldIsNamedInOneError() throws {
        let body = #"{"number": null, "total": "much", "note": 4, "placedAt": null, "colour": 1, "customer": 12}"#
        #expect(throws: PayloadError(problems: [
            .init(field: "colour", reason: "is not a field of Order (its fields are number, placedAt, total, token, note, customer)"),
            .init(field: "number", reason: "cannot be null"),
            .init(field: "placedAt", reason: "cannot be null"),
            .init(field: "total", reason: "must be a number, found text"),
            .init(field: "note", reason: "must be text, found a whole number"),
            .init(field: "customer", reason: "must be text, found a whole number"),
        ])) {
            try patch(body, as: Order.self)
        }
        #expect(throws: PayloadError(problems: [.init(field: "", reason: "must be a JSON object, found text")])) {
            try patch(#""order""#, as: Order.self)
        }
        #expect(throws: PayloadError(problems: [.init(field: "stock", reason: "must be a whole number from -2147483648 to 2147483647, found 4294967296")])) {
            try patch(#"{"stock": 4294967296}"#, as: Product.self)
        }
    }

    @Test func customCodedAttributesTakeTheirBytes() async throws {
        let stack = DataStack(Clinic.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        // "QUIt" is base64 of "AB-", the app's stored form of AB negative.
        // "Aw==" is the one byte 3: Triage.immediate, of the parent entity Record.
        let patch = try patch(#"{"name": "Cy", "bloodType": "QUIt", "allergies": null, "class": "Aw=="}"#, as: Patient.self)
        #expect(patch.class == .set(.immediate))
        let made = try await stack.perform { transaction in Patient.Snapshot(try patch.create(in: transaction)) }
        #expect(made.bloodType == BloodType(group: "AB", positive: false))
        #expect(made.allergies == nil)
        #expect(made.class == .immediate)
        let error = #expect(throws: PayloadError.self) {
            try self.patch(#"{"bloodType": "WFg="}"#, as: Patient.self)
        }
        #expect(error?.description == "the field 'bloodType' could not be decoded: 'XX' is not a blood type")
    }

    /// Random values of every attribute type, sent as a create body made from a snapshot's JSON:
    /// the object created holds them exactly, on the backend under test.
    @Test func everyAttributeTypeArrivesExactly() async throws {
        let snapshots = try await WireSnapshotTests.storedSamples()
        let (encoder, decoder) = WireSnapshotTests.exactCoders()
        // The snapshot's own text, but for its ID (JSONSerialization would round its numbers).
        let bodies = try snapshots.map { snapshot -> Data in
            let text = String(decoding: try encoder.encode(snapshot), as: UTF8.self)
            return Data(text.replacingOccurrences(of: #""objectID":\d+,"#, with: "", options: .regularExpression).utf8)
        }
        let patches = try bodies.map { try decoder.decode(Patch<Sample>.self, from: $0) }
        let copyStack = DataStack(Exact.schemaHistory)
        try copyStack.addStorageAndWait(freshStore())
        try await copyStack.perform { transaction in
            for patch in patches { _ = try patch.create(in: transaction) }
        }
        let copies = try copyStack.fetchAll(From<Sample>().orderBy(.ascending(\.key))).map(Sample.Snapshot.init)
        #expect(copies.count == snapshots.count)
        for (copy, original) in zip(copies, snapshots) {
            var copy = copy
            copy.objectID = original.objectID
            #expect(try encoder.encode(copy) == encoder.encode(original), "sample \(original.key)")
        }
    }

    /// To-one relationships travel as the snapshot gives them: the related object's unique ID.
    @Test func toOneRelationshipsAreGivenByUniqueID() async throws {
        let stack = try shop()
        try await stack.perform { transaction in
            let ann = transaction.create(Into<Customer>())
            ann.name = "Ann"
            ann.email = "ann@example.com"
        }
        let patch = try patch(#"{"number": 5, "customer": "ann@example.com"}"#, as: Order.self)
        #expect(patch.givenID(\.customer) == .set("ann@example.com"))
        let order = try await stack.perform { transaction in Order.Snapshot(try patch.create(in: transaction)) }
        #expect(order.customer == "ann@example.com")

        let unknown = try self.patch(#"{"number": 6, "customer": "bob@example.com"}"#, as: Order.self)
        await #expect(throws: UnknownReference(field: "customer", entity: "Customer", key: "email", id: "bob@example.com")) {
            try await stack.perform { transaction in _ = try unknown.create(in: transaction) }
        }
        #expect(UnknownReference(field: "customer", entity: "Customer", key: "email", id: "bob@example.com").description
                == "the field 'customer' names no Customer with the email bob@example.com")
        #expect(try stack.fetchCount(From<Order>()) == 1, "nothing created")

        var inCode = Patch<Order>()
        inCode.number = .set(8)
        inCode.setID(\.customer, "ann@example.com")
        #expect(inCode.givenID(\.customer) == .set("ann@example.com"))
        let built = inCode
        let second = try await stack.perform { transaction in Order.Snapshot(try built.create(in: transaction)) }
        #expect(second.customer == "ann@example.com")
        try await stack.perform { transaction in
            _ = try transaction.deleteAll(From<Order>().where(\.number == 8))
        }

        let cleared = try self.patch(#"{"customer": null, "note": "walk-in"}"#, as: Order.self)
        #expect(cleared.givenID(\.customer) == .null)
        let after = try await stack.perform { transaction in
            let order = try #require(try transaction.fetchOne(From<Order>()))
            try cleared.apply(to: order)
            return Order.Snapshot(order)
        }
        #expect(after.customer == nil && after.note == "walk-in")
    }

    /// A destination without a unique ID is named by its row id; an unknown one changes nothing.
    @Test func toOneRelationshipsAreGivenByRowIDOtherwise() async throws {
        let stack = DataStack(Garden.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        let (plotID, plantID) = try await stack.perform { transaction in
            let plot = transaction.create(Into<Plot>())
            let plant = transaction.create(Into<Plant>())
            plant.species = "fern"
            return (plot.objectID(as: Plot.self).rowID, plant.objectID(as: Plant.self))
        }
        let patch = try patch(#"{"plot": \#(plotID)}"#, as: Plant.self)
        let plot = try await stack.perform { transaction in
            let plant = try #require(transaction.fetchExisting(plantID))
            try patch.apply(to: plant)
            return plant.plot?.objectID(as: Plot.self).rowID
        }
        #expect(plot == plotID)
        let unknown = try self.patch(#"{"plot": 999999, "species": "moss"}"#, as: Plant.self)
        await #expect(throws: UnknownReference(field: "plot", entity: "Plot", key: "row id", id: "999999")) {
            try await stack.perform { transaction in try unknown.apply(to: try #require(transaction.fetchExisting(plantID))) }
        }
        #expect(try stack.fetchOne(From<Plant>())?.species == "fern", "nothing changed")
    }

    /// A snapshot's JSON, without its ID, is a patch of the same values.
    @Test func aSnapshotsJSONIsAPatch() async throws {
        let stack = try shop()
        let snapshot = try await stack.perform { transaction in
            let ann = transaction.create(Into<Customer>())
            ann.name = "Ann"
            ann.email = "ann@example.com"
            let order = transaction.create(Into<Order>())
            order.number = 9
            order.note = "gift"
            order.customer = ann
            return Order.Snapshot(order)
        }
        let text = String(decoding: try JSONEncoder().encode(snapshot), as: UTF8.self)
            .replacingOccurrences(of: #""objectID":\d+,?"#, with: "", options: .regularExpression)
        let patch = try JSONDecoder().decode(Patch<Order>.self, from: Data(text.utf8))
        #expect(patch.givenNames == ["number", "placedAt", "total", "token", "note", "customer"])
        #expect(patch.note == .set("gift"))
    }
}
