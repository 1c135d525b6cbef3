import Foundation
import Strata
import StrataTestSupport
import Testing

/// Conditions and orderings through relationships in the Shop model: key paths one and two to-one
/// relationships deep, longer paths chained with `~`, and to-many relationships counted and
/// quantified (`any`, `all`, `none`), through foreign keys, link tables and a shared table.
@Suite("Relationship paths")
@MainActor
struct RelationshipPathTests {
    let stack: DataStack

    /// `referrer` is its own inverse, so Ann and Bob refer each other and Cy has no referrer (Bob
    /// named Cy first, then Ann named Bob). Ann has orders 1 (W-1, G-2) and 2 (no products, note
    /// "gift"); Bob has order 3 (G-2); Cy has none. Acme supplies W-1.
    init() async throws {
        stack = DataStack(Shop.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        try await stack.perform { t in
            func customer(_ name: String, referrer: Customer?) -> Customer {
                let customer = t.create(Into<Customer>())
                customer.name = name
                customer.email = name.lowercased() + "@example.com"
                customer.referrer = referrer
                return customer
            }
            let cy = customer("Cy", referrer: nil)
            let bob = customer("Bob", referrer: cy)
            let ann = customer("Ann", referrer: bob)
            let widget = t.create(Into<Product>())
            widget.sku = "W-1"
            let gadget = t.create(Into<Product>())
            gadget.sku = "G-2"
            let acme = t.create(Into<Supplier>())
            acme.name = "Acme"
            acme.products = [widget]
            for (number, owner, products, total, note) in [(1, ann, [widget, gadget], 30.0, nil), (2, ann, [], 12.5, "gift"), (3, bob, [gadget], 8.0, nil)] {
                let order = t.create(Into<Order>())
                order.number = Int64(number)
                order.customer = owner
                order.products = Set(products)
                order.total = total
                order.note = note
            }
        }
    }

    private func customers(_ condition: Where<Customer>) throws -> [String] {
        try stack.fetchAll(From<Customer>().where(condition).orderBy(.ascending(\.name))).map(\.name)
    }

    private func orders(_ condition: Where<Order>) throws -> [Int64] {
        try stack.fetchAll(From<Order>().where(condition).orderBy(.ascending(\.number))).map(\.number)
    }

    @Test func keyPathsTwoToOneRelationshipsDeep() throws {
        #expect(try orders(\.customer?.referrer?.name == "Bob") == [1, 2])
        #expect(try orders(\.customer?.referrer?.name == "Ann") == [3])
        #expect(try orders(\.customer?.referrer?.name == nil) == [])
        #expect(try customers(\.referrer?.referrer?.name == "Ann") == ["Ann"])
        #expect(try customers(\.referrer?.referrer?.name == nil) == ["Cy"])
    }

    @Test func longerPathsAreChained() throws {
        #expect(try orders(\Order.customer ~ \Customer.referrer ~ \Customer.referrer ~ \Customer.name == "Ann") == [1, 2])
        #expect(try orders(\Order.customer ~ \Customer.referrer ~ \Customer.name != "Bob") == [3])
        #expect(try orders(\Order.customer ~ \Customer.referrer ~ \Customer.referrer ~ \Customer.referrer == nil) == [])
        #expect(try orders(\Order.customer ~ \Customer.referrer ~ \Customer.referrer ~ \Customer.referrer != nil) == [1, 2, 3])
        #expect(try customers(\Customer.referrer ~ \Customer.referrer ~ \Customer.referrer == nil) == ["Cy"])
        #expect(try orders(\Order.customer ~ \Customer.name ~= ["Bob", "Cy"]) == [3])
        #expect(try orders(\Order.customer ~ \Customer.referrer ~ \Customer.name > "Az") == [1, 2])
        let path = \Order.customer ~ \Customer.referrer ~ \Customer.name
        #expect(path.description == "customer.referrer.name")
        let same = \Order.customer ~ \Customer.referrer ~ \Customer.name
        #expect(path == same)
    }

    @Test func orderingThroughToOneRelationships() throws {
        let byReferrer = try stack.fetchAll(From<Order>().orderBy(.descending(\.customer?.name), .ascending(\.number))).map(\.number)
        #expect(byReferrer == [3, 1, 2])
        let chained = try stack.fetchAll(From<Order>().orderBy(.ascending(\Order.customer ~ \Customer.referrer ~ \Customer.name), .ascending(\.number)))
        #expect(chained.map(\.number) == [3, 1, 2])
    }

    @Test func toManyRelationshipsCount() throws {
        #expect(try customers(\.orders.count == 2) == ["Ann"])
        #expect(try customers(\.orders.count > 0) == ["Ann", "Bob"])
        #expect(try customers(\.orders.count == 0) == ["Cy"])
        #expect(try orders(\.products.count >= 1) == [1, 3])
        #expect(try stack.fetchAll(From<Product>().where(\.orders.count == 2)).map(\.sku) == ["G-2"])
        #expect(try orders((\Order.customer ~ \Customer.orders).count == 2) == [1, 2])
        let busiestFirst = try stack.fetchAll(From<Customer>().orderBy(.descending(\.orders.count), .ascending(\.name))).map(\.name)
        #expect(busiestFirst == ["Ann", "Bob", "Cy"])
    }

    @Test func toManyRelationshipsQuantify() throws {
        #expect(try customers(.any(\.orders, \.total > 20)) == ["Ann"])
        #expect(try customers(.all(\.orders, \.total > 10)) == ["Ann", "Cy"], "an empty relationship meets every condition")
        #expect(try customers(.none(\.orders, \.note == "gift")) == ["Bob", "Cy"])
        #expect(try customers(.all(\.orders, \.note == "gift")) == ["Cy"], "a nil note does not equal \"gift\"")
        #expect(try orders(.any(\.products, \.sku == "W-1")) == [1])
        #expect(try orders(.none(\.products, \.sku == "W-1")) == [2, 3])
        #expect(try stack.fetchAll(From<Product>().where(.any(\.suppliers, \.name == "Acme"))).map(\.sku) == ["W-1"])
        #expect(try orders(.any(\Order.customer ~ \Customer.orders, \.note == "gift")) == [1, 2])
        #expect(try customers(.any(\.orders, .any(\.products, \.sku == "G-2")) && \.referrer?.name == "Ann") == ["Bob"])
        #expect(try customers(.any(\.orders, \.customer?.referrer?.name == "Bob")) == ["Ann"], "joins inside a quantified condition")
    }

    @Test(.timeLimit(.minutes(5))) func aListMonitorFollowsTheRelationshipsItsConditionReads() async throws {
        let monitor = try stack.monitorList(From<Customer>().where(.any(\.orders, \.total > 20)).orderBy(.ascending(\.name)))
        #expect(monitor.objects.map(\.name) == ["Ann"])
        var updates = monitor.updates.makeAsyncIterator()
        try await stack.perform { t in
            let order = t.create(Into<Order>())
            order.number = 9
            order.total = 99
            order.customer = try t.fetchOne(From<Customer>().where(\.name == "Cy"))
        }
        var update = try #require(try await updates.next())
        #expect(update.snapshot.count == 2)
        #expect(monitor.objects.map(\.name) == ["Ann", "Cy"])
        try await stack.perform { t in
            for order in try t.fetchAll(From<Order>().where(\.customer?.name == "Ann")) { order.total = 1 }
        }
        update = try #require(try await updates.next())
        #expect(monitor.objects.map(\.name) == ["Cy"])
    }

    @Test func countsAndQuantifiersDescribeThemselves() {
        #expect(Where<Customer>.any(\.orders, \.total > 20).description == "Where<Customer>(any(orders, total > 20.0))")
        let busy: Where<Customer> = \.orders.count > 1
        #expect(busy.description == "Where<Customer>(orders.@count > 1)")
        #expect(Where<Customer>.any(\.orders, \.total > 20) == Where<Customer>.any(\.orders, \.total > 20))
        #expect(Where<Customer>.any(\.orders, \.total > 20) != Where<Customer>.all(\.orders, \.total > 20))
    }

    /// The runtime names a path through one or two to-one relationships from the classes' parts:
    /// attributes of the destination's own and inherited, of a class related to itself, with and
    /// without a value type that is optional.
    @Test func pathsThroughToOneRelationshipsAreNamedFromTheClassesParts() {
        let named: [(Where<Order>, String)] = [
            (\.customer?.email == "ann@example.com", "customer.email"),
            (\.customer?.name == "Ann", "customer.name"),
            (\.customer?.vip == true, "customer.vip"),
            (\.customer?.createdAt > Date(timeIntervalSince1970: 0), "customer.createdAt"),
            (\.customer?.referrer?.email == "bob@example.com", "customer.referrer.email"),
            (\.customer?.referrer?.balance > 1, "customer.referrer.balance"),
        ]
        for (condition, path) in named {
            #expect(condition.description.hasPrefix("Where<Order>(" + path + " "), "\(condition)")
        }
        let referrers: Where<Customer> = \.referrer?.referrer?.name == "Cy"
        #expect(referrers.description == "Where<Customer>(referrer.referrer.name == \"Cy\")")
    }

    /// A path written with `?.` and the same path chained with `~` are one condition, one and two
    /// relationships deep, in every build (CI runs this suite optimized too, where key paths are
    /// made differently).
    @Test func optionalChainsEqualTheirChainedForms() throws {
        let chained: Where<Order> = (\Order.customer ~ \Customer.name) == "x"
        let optional: Where<Order> = \.customer?.name == "x"
        #expect(chained == optional)
        let chainedTwice: Where<Order> = (\Order.customer ~ \Customer.referrer ~ \Customer.name) == "x"
        let optionalTwice: Where<Order> = \.customer?.referrer?.name == "x"
        #expect(chainedTwice == optionalTwice)
        let chainedSelf: Where<Customer> = (\Customer.referrer ~ \Customer.vip) == true
        let optionalSelf: Where<Customer> = \.referrer?.vip == true
        #expect(chainedSelf == optionalSelf)
        #expect(try orders(\.customer?.name == "Ann" && \.number < 2) == [1])
    }

    /// A path that goes on past an attribute names no column: it is refused when the fetch runs,
    /// as a path the schema cannot join is.
    @Test func aPathPastAnAttributeIsRefused() throws {
        let length = \Order.customer?.name.count
        #expect(throws: StrataError.invalidQuery("KeyPath<Order, Optional<Int>> does not name a stored property of 'Order'; "
                                                 + "a path through more than two to-one relationships is written with ~ (\\.owner ~ \\.address ~ \\.city), "
                                                 + "and a to-many relationship is tested with .any, .all, .none or its count")) {
            try stack.fetchAll(From<Order>().where(length == 3))
        }
    }

    @Test func aPathTheSchemaCannotJoinIsNamed() throws {
        let deep = \Order.customer?.referrer?.referrer?.name
        #expect(throws: StrataError.invalidQuery("KeyPath<Order, Optional<String>> does not name a stored property of 'Order'; "
                                                 + "a path through more than two to-one relationships is written with ~ (\\.owner ~ \\.address ~ \\.city), "
                                                 + "and a to-many relationship is tested with .any, .all, .none or its count")) {
            try stack.fetchAll(From<Order>().where(deep == "Cy"))
        }
    }
}
