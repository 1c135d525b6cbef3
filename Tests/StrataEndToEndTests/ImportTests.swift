import Foundation
import Strata
import StrataTestSupport
import Testing

/// Importers generated from the Shop model's `import:` blocks, run against the runtime.
@Suite("Generated importers")
@MainActor
struct ImportTests {
    static let json = Data(#"""
    [
      {"contact": {"email": "ann@example.com"}, "name": "Ann", "vip": true, "balance": "12.50",
       "prefs": {"newsletter": true, "language": "fr"},
       "orders": [{"no": 1, "placed_at": "2024-05-01T12:00:00Z", "total": 30, "note": null,
                   "items": [{"sku": "W-1", "price": 9.99, "stock": 3, "rank": 2, "views": 10,
                              "picture": "AAEC", "page": "https://example.com/w"}]},
                  {"no": 2, "placed_at": 1714564800, "total": 12.5, "note": "gift", "items": []}]},
      {"contact": {"email": "bob@example.com"}, "name": "Bob", "vip": false, "balance": 0, "prefs": null, "orders": []}
    ]
    """#.utf8)

    private func sources(_ data: Data = json) -> [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? []
    }

    @Test func uniqueImportsInsertThenUpdate() async throws {
        let stack = DataStack(Shop.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        let json = Self.json
        let first = try await stack.perform { transaction in
            let people = try JSONSerialization.jsonObject(with: json) as? [[String: Any]] ?? []
            return try transaction.importUniqueObjects(Into<Customer>(), sourceArray: people).map(\.email)
        }
        #expect(first == ["ann@example.com", "bob@example.com"])
        let ann = try #require(try stack.fetchOne(From<Customer>().where(\.email == "ann@example.com")))
        #expect(ann.name == "Ann")
        #expect(ann.vip)
        #expect(ann.balance == Decimal(string: "12.50")!)
        #expect(ann.preferences == Preferences(newsletter: true, language: "fr"))
        #expect(ann.orders.map(\.number) == [1, 2])
        #expect(ann.orders.map(\.note) == [nil, "gift"])
        #expect(ann.orders[0].placedAt == Date(timeIntervalSince1970: 1_714_564_800))
        #expect(ann.orders[1].placedAt == Date(timeIntervalSince1970: 1_714_564_800))
        let widget = try #require(ann.orders[0].products.first)
        #expect(widget.sku == "W-1")
        #expect(widget.stock == 3)
        #expect(widget.picture == Data([0, 1, 2]))
        #expect(widget.page == URL(string: "https://example.com/w"))

        let update = Data(#"[{"contact": {"email": "ann@example.com"}, "name": "Ann Lee", "prefs": null}]"#.utf8)
        try await stack.perform { transaction in
            let people = try JSONSerialization.jsonObject(with: update) as? [[String: Any]] ?? []
            _ = try transaction.importUniqueObjects(Into<Customer>(), sourceArray: people)
        }
        #expect(try stack.fetchCount(From<Customer>()) == 2)
        #expect(ann.name == "Ann Lee")
        #expect(ann.preferences == nil)
        #expect(ann.vip)
    }

    /// As CoreStore skips a source whose `uniqueID(from:in:)` is nil, a source whose ID is null or
    /// absent is skipped and counted, even though the model makes `Customer.email` required.
    @Test func sourcesWithoutAnIDAreSkippedEvenWhenTheIDIsRequired() async throws {
        let stack = DataStack(Shop.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        let sources = Data(#"""
            [{"contact": {"email": "cy@example.com"}, "name": "Cy"}, {"name": "No email"},
             {"contact": {"email": null}, "name": "Null email"}, {"contact": null, "name": "Null contact"}]
            """#.utf8)
        let fromDictionaries = try await stack.perform { transaction in
            let people = try JSONSerialization.jsonObject(with: sources) as? [[String: Any]] ?? []
            let report = try transaction.importUniqueObjectsReporting(Into<Customer>(), sourceArray: people)
            return [report.objects.count, report.inserted, report.updated, report.skippedWithoutID]
        }
        #expect(fromDictionaries == [1, 1, 0, 3])
        let payloads = try JSONDecoder().decode([Customer.ImportPayload].self, from: sources)
        #expect(payloads.map(\.email) == ["cy@example.com", nil, nil, nil])
        let fromPayloads = try await stack.perform { transaction in
            let report = try transaction.importUniqueObjectsReporting(Into<Customer>(), sourceArray: payloads)
            return [report.objects.count, report.inserted, report.updated, report.skippedWithoutID]
        }
        #expect(fromPayloads == [1, 0, 1, 3])
        let one = try await stack.perform { transaction in
            try transaction.importUniqueObject(Into<Customer>(), source: ["name": "Nobody"])?.objectID(as: Customer.self)
        }
        #expect(one == nil)
        #expect(try stack.fetchAll(From<Customer>()).map(\.name) == ["Cy"])
    }

    /// A unique ID that is there but of the wrong kind is not a missing one: it fails the import,
    /// naming the source and the key, and nothing of the transaction is kept.
    @Test func anIDOfTheWrongKindIsNamedAndNothingIsKept() async throws {
        let stack = DataStack(Shop.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        let sources = Data(#"[{"contact": {"email": "cy@example.com"}}, {"contact": {"email": ["ann@example.com"]}}]"#.utf8)
        let error = StrataError.invalidImportSource(entity: "Customer", source: "[1]", key: "contact.email",
                                                   reason: "expected text, found an array")
        await #expect(throws: error) {
            try await stack.perform { transaction in
                let people = try JSONSerialization.jsonObject(with: sources) as? [[String: Any]] ?? []
                _ = try transaction.importUniqueObjects(Into<Customer>(), sourceArray: people)
            }
        }
        #expect(try stack.fetchCount(From<Customer>()) == 0)
        #expect(throws: error) { try JSONDecoder().decode([Customer.ImportPayload].self, from: sources) }
    }

    @Test func manySourcesAreUniquedInChunks() async throws {
        let stack = DataStack(Shop.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        for _ in 0..<2 {
            try await stack.perform { transaction in
                let sources: [[String: Any]] = (0..<1_200).map { ["sku": "P-\($0 % 1_100)", "stock": $0] }
                let products = try transaction.importUniqueObjects(Into<Product>(), sourceArray: sources)
                #expect(products.count == 1_100)
            }
        }
        #expect(try stack.fetchCount(From<Product>()) == 1_100)
        #expect(try stack.fetchOne(From<Product>().where(\.sku == "P-5"))?.stock == 1_105)
    }

    @Test func aValueOfTheWrongKindIsNamedAndNothingIsKept() async throws {
        let stack = DataStack(Shop.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        let bad = Data(#"[{"sku": "A"}, {"sku": "B", "stock": "many"}]"#.utf8)
        await #expect(throws: StrataError.invalidImportSource(entity: "Product", source: "[1]", key: "stock",
                                                              reason: "expected a whole number that fits Int32, found the text \"many\"")) {
            try await stack.perform { transaction in
                let sources = try JSONSerialization.jsonObject(with: bad) as? [[String: Any]] ?? []
                _ = try transaction.importUniqueObjects(Into<Product>(), sourceArray: sources)
            }
        }
        #expect(try stack.fetchCount(From<Product>()) == 0)
        let flags = Data(#"[{"sku": "C", "stock": true}, {"sku": "D", "rank": 1.5}, {"sku": 7}]"#.utf8)
        let expected: [StrataError] = [
            .invalidImportSource(entity: "Product", source: "[0]", key: "stock", reason: "expected a whole number that fits Int32, found true"),
            .invalidImportSource(entity: "Product", source: "[0]", key: "rank", reason: "expected a whole number that fits Int16, found 1.5"),
        ]
        for (index, error) in expected.enumerated() {
            await #expect(throws: error) {
                try await stack.perform { transaction in
                    let sources = try JSONSerialization.jsonObject(with: flags) as? [[String: Any]] ?? []
                    _ = try transaction.importUniqueObjects(Into<Product>(), sourceArray: [sources[index]])
                }
            }
        }
        await #expect(throws: StrataError.invalidImportSource(entity: "Product", source: "[0]", key: "sku", reason: "expected text, found 7")) {
            try await stack.perform { transaction in
                let sources = try JSONSerialization.jsonObject(with: flags) as? [[String: Any]] ?? []
                _ = try transaction.importUniqueObjects(Into<Product>(), sourceArray: [sources[2]])
            }
        }
    }
}

@Suite("Generated importers: relationships by ID")
@MainActor
struct ImportByIDTests {
    @Test func relationshipsCanNameExistingObjectsByUniqueID() async throws {
        let stack = DataStack(Shop.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        try await stack.perform { transaction in
            let products = (1...3).map { ["sku": "S-\($0)"] as [String: Any] }
            _ = try transaction.importUniqueObjects(Into<Product>(), sourceArray: products)
            let orders: [[String: Any]] = [["no": 7, "items": ["S-3", "S-1"]], ["no": 8, "items": "S-2"], ["no": 9, "items": NSNull()]]
            _ = try transaction.importUniqueObjects(Into<Order>(), sourceArray: orders)
        }
        let orders = try stack.fetchAll(From<Order>().orderBy(.ascending(\.number)))
        #expect(orders.map { $0.products.map(\.sku).sorted() } == [["S-1", "S-3"], ["S-2"], []])
        await #expect(throws: StrataError.importFailed(entity: "Order", attribute: "products", key: "items", reason: "no 'Product' has the ID S-404")) {
            try await stack.perform { transaction in
                _ = try transaction.importUniqueObjects(Into<Order>(), sourceArray: [["no": 10, "items": ["S-404"]]])
            }
        }
        await #expect(throws: StrataError.invalidImportSource(entity: "Product", source: "[0].items[0]", key: nil,
                                                              reason: "expected an object or an ID (text), found 12")) {
            try await stack.perform { transaction in
                _ = try transaction.importUniqueObjects(Into<Order>(), sourceArray: [["no": 11, "items": [12]]])
            }
        }
        #expect(try stack.fetchCount(From<Order>()) == 3)
    }
}
