import Foundation
import Strata
import StrataTestSupport
import Testing

/// Snapshots as an API sends them: the ID as a row id, relationships by the related objects'
/// unique IDs (or row ids), to-many members only when asked for, dates as the encoder says, every
/// attribute type exactly, and one error naming every bad field.
@Suite("Snapshots on the wire")
@MainActor
struct WireSnapshotTests {
    /// An order of Ann's with two products, and a supplier of one of them.
    private func shop() async throws -> DataStack {
        let stack = DataStack(Shop.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        try await stack.perform { transaction in
            let ann = transaction.create(Into<Customer>())
            ann.name = "Ann"
            ann.email = "ann@example.com"
            let order = transaction.create(Into<Order>())
            order.number = 42
            order.customer = ann
            var products: [Product] = []
            for sku in ["B-2", "A-1"] {
                let product = transaction.create(Into<Product>())
                product.sku = sku
                products.append(product)
            }
            order.products = Set(products)
            let supplier = transaction.create(Into<Supplier>())
            supplier.name = "Acme"
            supplier.products = [products[1]]
        }
        return stack
    }

    private func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func theIDIsTheRowIDAndFindsTheObjectAgain() async throws {
        let stack = try await shop()
        let order = try #require(try stack.fetchOne(From<Order>()))
        let snapshot = Order.Snapshot(order)
        let json = try object(JSONEncoder().encode(snapshot))
        #expect(json["objectID"] as? Int64 == order.objectID.rowID)
        let decoded = try JSONDecoder().decode(Order.Snapshot.self, from: JSONEncoder().encode(snapshot))
        #expect(decoded == snapshot)
        #expect(decoded.objectID == order.objectID)
        #expect(stack.fetchExisting(decoded.objectID) === order)
        #expect(stack.fetchExisting(ObjectID<Order>(rowID: order.objectID.rowID)) === order)
        #expect(stack.fetchExisting(ObjectID<Order>(rowID: 999)) == nil)
        let number = try await stack.perform { transaction in
            transaction.fetchExisting(ObjectID<Order>(rowID: snapshot.objectID.rowID))?.number
        }
        #expect(number == 42)
    }

    @Test func toOneRelationshipsAreTheUniqueIDOrTheRowID() async throws {
        let stack = try await shop()
        let order = Order.Snapshot(try #require(try stack.fetchOne(From<Order>())))
        #expect(order.customer == "ann@example.com")
        let json = try object(JSONEncoder().encode(order))
        #expect(json["customer"] as? String == "ann@example.com")
        #expect(json["products"] == nil, "to-many relationships are left out unless asked for")
        let orphan = try await stack.perform { transaction in
            let order = transaction.create(Into<Order>())
            order.number = 7
            return Order.Snapshot(order)
        }
        #expect(try object(JSONEncoder().encode(orphan))["customer"] == nil)
    }

    @Test func toManyRelationshipsComeWhenAskedFor() async throws {
        let stack = try await shop()
        let order = try #require(try stack.fetchOne(From<Order>()))
        let full = Order.Snapshot(order, includingToMany: true)
        let products = try stack.fetchAll(From<Product>().orderBy(.ascending(\.sku)))
        // By the members' row ids: B-2 was created first.
        #expect(full.products == ["B-2", "A-1"])
        #expect(try object(JSONEncoder().encode(full))["products"] as? [String] == ["B-2", "A-1"])
        let customer = Customer.Snapshot(try #require(try stack.fetchOne(From<Customer>())), includingToMany: true)
        #expect(customer.orders == [42])
        #expect(customer.referrer == nil)
        let supplied = Product.Snapshot(products[0], includingToMany: true)
        let supplier = try #require(try stack.fetchOne(From<Supplier>()))
        #expect(supplied.suppliers == [supplier.objectID(as: Supplier.self).rowID], "Supplier has no unique ID: row ids")
        #expect(try JSONDecoder().decode(Order.Snapshot.self, from: JSONEncoder().encode(full)) == full)
    }

    @Test func datesFollowTheEncodersStrategy() async throws {
        let stack = try await shop()
        var order = Order.Snapshot(try #require(try stack.fetchOne(From<Order>())))
        order.placedAt = Date(timeIntervalSince1970: 1_700_000_000)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let json = try object(encoder.encode(order))
        #expect(json["placedAt"] as? String == "2023-11-14T22:13:20Z")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(Order.Snapshot.self, from: encoder.encode(order)) == order)
        encoder.dateEncodingStrategy = .secondsSince1970
        #expect(try object(encoder.encode(order))["placedAt"] as? Double == 1_700_000_000)
    }

    /// Random values of every attribute type, from the store of the backend under test, through
    /// JSON and back: equal, and written again byte for byte. Non-finite floats travel as text
    /// (the coders' strategy); a Decimal NaN has no JSON form and is left out of the samples.
    @Test func everyAttributeTypeRoundTripsExactly() async throws {
        let snapshots = try await Self.storedSamples()
        let (encoder, decoder) = Self.exactCoders()
        #expect(snapshots.count == Self.wireSafeValues().count)
        for snapshot in snapshots {
            let json = try encoder.encode(snapshot)
            let decoded = try decoder.decode(Sample.Snapshot.self, from: json)
            #expect(try encoder.encode(decoded) == json, "sample \(snapshot.key)")
            // NaN (of a number or a date's interval) is never equal to itself.
            let payloads = [snapshot.jsonPayload, snapshot.binaryPayload].compactMap { $0 }
            let hasNaN = String(decoding: json, as: UTF8.self).contains(#""nan""#)
                || payloads.contains { $0.number.isNaN || $0.when.timeIntervalSinceReferenceDate.isNaN }
            // Compared field by field: describing a snapshot whose date is far out traps in Foundation.
            if !hasNaN {
                let differing = zip(Mirror(reflecting: decoded).children, Mirror(reflecting: snapshot).children)
                    .filter { AnyHashable(unsafeHashable: $0.value) != AnyHashable(unsafeHashable: $1.value) }.map { $0.0.label ?? "?" }
                #expect(differing.isEmpty, "sample \(snapshot.key): \(differing)")
            }
        }
    }

    /// The wire-safe random samples, stored through a new stack on the backend under test and
    /// read back as snapshots, by key.
    static func storedSamples() async throws -> [Sample.Snapshot] {
        let stack = DataStack(Exact.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        let written = wireSafeValues()
        try await stack.perform { transaction in
            for values in written { values.apply(to: transaction.create(Into<Sample>())) }
        }
        return try stack.fetchAll(From<Sample>().orderBy(.ascending(\.key))).map(Sample.Snapshot.init)
    }

    /// Coders that keep every value: keys sorted, non-finite floats as `"inf"`, `"-inf"`, `"nan"`.
    static func exactCoders() -> (JSONEncoder, JSONDecoder) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return (encoder, decoder)
    }

    /// The random samples, but for what JSON or PostgreSQL cannot hold: a Decimal NaN (no JSON
    /// form) and U+0000 in text.
    static func wireSafeValues() -> [ExactValues] {
        ExactRoundTripTests.randomValues().map { values in
            var values = values
            values.text = withoutNul(values.text)
            values.optionalText = values.optionalText.map(withoutNul)
            if values.amount.isNaN { values.amount = 1 }
            if values.optionalAmount?.isNaN == true { values.optionalAmount = nil }
            return values
        }
    }

    /// The text with each U+0000 replaced, scalar by scalar (a NUL can begin a grapheme cluster).
    private static func withoutNul(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\0" ? "0" : $0 }))
    }

    @Test func everyBadFieldIsNamedInOneError() throws {
        let body = #"""
        {"objectID": "seven", "number": 3.5, "placedAt": 0, "total": "much", "token": "not-a-uuid",
         "note": null, "customer": 12, "colour": "red", "products": {}}
        """#
        #expect(throws: PayloadError(problems: [
            .init(field: "colour", reason: "is not a field of Order (its fields are objectID, number, placedAt, total, token, note, customer, products)"),
            .init(field: "objectID", reason: "must be a row id (a whole number), found text"),
            .init(field: "number", reason: "must be a whole number from -9223372036854775808 to 9223372036854775807, found 3.5"),
            .init(field: "total", reason: "must be a number, found text"),
            .init(field: "token", reason: "must be a UUID (text such as \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\"), found \"not-a-uuid\""),
            .init(field: "customer", reason: "must be text, found a whole number"),
            .init(field: "products", reason: "must be an array, found an object"),
        ])) {
            try JSONDecoder().decode(Order.Snapshot.self, from: Data(body.utf8))
        }
        #expect(throws: PayloadError(problems: [.init(field: "", reason: "must be a JSON object, found an array")])) {
            try JSONDecoder().decode(Order.Snapshot.self, from: Data("[]".utf8))
        }
        let missing = #expect(throws: PayloadError.self) {
            try JSONDecoder().decode(Order.Snapshot.self, from: Data(#"{"note": null}"#.utf8))
        }
        #expect(missing?.description == "the field 'objectID' is missing; the field 'number' is missing; the field 'placedAt' is missing; "
                + "the field 'total' is missing; the field 'token' is missing")
    }

    @Test func nestedSnapshotsNameTheirPath() throws {
        let body = #"[{"objectID": 1, "number": 1, "placedAt": 0, "total": 0, "token": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"},"#
            + #" {"objectID": 2, "number": -1, "placedAt": 0, "total": true, "token": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}]"#
        let error = #expect(throws: PayloadError.self) {
            try JSONDecoder().decode([Order.Snapshot].self, from: Data(body.utf8))
        }
        #expect(error?.description == "the field '[1].total' must be a number, found true")
    }
}

private extension AnyHashable {
    /// A snapshot field's value (every one is `Hashable`).
    init(unsafeHashable value: Any) {
        self = (value as? any Hashable).map { AnyHashable($0) } ?? AnyHashable("not hashable")
    }
}
