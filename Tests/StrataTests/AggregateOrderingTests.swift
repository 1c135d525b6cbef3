import Foundation
import StrataTestSupport
import Testing
@testable import Strata

/// Every aggregate, with and without ordering, limits and offsets, on both backends: an order that
/// cannot apply to one row per group is left out (PostgreSQL refuses it; SQLite would order by an
/// arbitrary row of each group), and limits and offsets count result rows.
@Suite("Aggregates with ordering, limits and offsets")
@MainActor
struct AggregateOrderingTests {
    let stack: DataStack

    init() async throws {
        stack = try makeStack()
        try await stack.perform { transaction in
            for (name, age, active, score, balance) in [("Ann", 30, true, 1.5, "1.5"), ("Bob", 30, false, 2.5, "2.25"),
                                                        ("Cid", 40, true, 4.0, "10"), ("Dee", 50, true, 8.0, "0.25")] {
                let person = transaction.create(Into<Person>())
                person.name = name
                person.age = Int16(age)
                person.isActive = active
                person.score = score
                person.balance = Decimal(string: balance)!
                person.visits = age / 10
            }
        }
    }

    /// The clauses each aggregate is tried under: none, an order, an order and a limit of one (as
    /// CoreStore's query tests ask), an order on a descending key, and distinct results.
    static var plainShapes: [(String, (From<Person>) -> FetchChainBuilder<Person>)] { [
        ("no order", { $0.where(\.age > 0) }),
        ("ordered", { $0.orderBy(.ascending(\.name)) }),
        ("ordered, limit 1", { $0.orderBy(.ascending(\.name)).tweak { $0.fetchLimit = 1 } }),
        ("ordered by two keys", { $0.orderBy(.descending(\.score), .ascending(\.balance)) }),
        ("distinct", { $0.orderBy(.ascending(\.name)).tweak { $0.returnsDistinctResults = true } }),
    ] }

    @Test func everyAggregateOverTheWholeFetchIgnoresItsOrder() throws {
        for (shape, make) in Self.plainShapes {
            let fetch = make(From<Person>())
            #expect(try stack.queryValue(fetch.select(Double.self, .average(\.isActive))) == 0.75, "\(shape)")
            #expect(try stack.queryValue(fetch.select(Double.self, .average(\.score))) == 4, "\(shape)")
            #expect(try stack.queryValue(fetch.select(Int.self, .count(\.name))) == 4, "\(shape)")
            #expect(try stack.queryValue(fetch.select(Int16.self, .maximum(\.age))) == 50, "\(shape)")
            #expect(try stack.queryValue(fetch.select(String.self, .minimum(\.name))) == "Ann", "\(shape)")
            #expect(try stack.queryValue(fetch.select(Int.self, .sum(\.visits))) == 15, "\(shape)")
            #expect(try stack.queryValue(fetch.select(Decimal.self, .maximum(\.balance))) == 10, "\(shape)")
            let rows = try stack.queryAttributes(fetch.select(.sum(\.score), .count(\.age, as: "n"), .minimum(\.balance)))
            #expect(rows.count == 1, "\(shape)")
            #expect(rows.first?["sum(score)"] as? Double == 16, "\(shape)")
            #expect(rows.first?["n"] as? Int == 4, "\(shape)")
            #expect(rows.first?["min(balance)"] as? Decimal == Decimal(string: "0.25"), "\(shape)")
        }
    }

    /// One row, so an offset of one leaves none.
    @Test func anOffsetSkipsTheOneRowOfAnAggregate() throws {
        let skipped = From<Person>().orderBy(.ascending(\.name)).tweak { $0.fetchOffset = 1 }
        #expect(try stack.queryValue(skipped.select(Int.self, .count(\.name))) == nil)
        #expect(try stack.queryAttributes(skipped.select(.average(\.score))).isEmpty)
        let first = From<Person>().tweak { $0.fetchOffset = 0; $0.fetchLimit = 5 }
        #expect(try stack.queryValue(first.select(Int.self, .count(\.name))) == 4)
    }

    @Test func groupsAreOrderedByTheirGroupedKeysWithLimitsAndOffsets() throws {
        func ages(_ fetch: FetchChainBuilder<Person>) throws -> [Int16?] {
            try stack.queryAttributes(fetch.select(.attribute(\.age), .count(\.name), .sum(\.score), .average(\.isActive),
                                                   .maximum(\.balance), .minimum(\.name)).groupBy(\.age)).map { $0["age"] as? Int16 }
        }
        #expect(try ages(From<Person>().orderBy(.descending(\.age))) == [50, 40, 30])
        #expect(try ages(From<Person>().orderBy(.descending(\.age)).tweak { $0.fetchLimit = 2 }) == [50, 40])
        #expect(try ages(From<Person>().orderBy(.descending(\.age)).tweak { $0.fetchOffset = 1 }) == [40, 30])
        #expect(try ages(From<Person>().orderBy(.ascending(\.age)).tweak { $0.fetchOffset = 1; $0.fetchLimit = 1 }) == [40])
        // A key that is not grouped cannot order groups: it is left out, the grouped one applies.
        #expect(try ages(From<Person>().orderBy(.ascending(\.name), .descending(\.age))) == [50, 40, 30])
        #expect(try Set(ages(From<Person>().orderBy(.ascending(\.name)))) == [30, 40, 50])
        let rows = try stack.queryAttributes(From<Person>().select(.attribute(\.age), .count(\.name, as: "n"), .sum(\.score, as: "total"))
            .groupBy(\.age).orderBy(.ascending(\.age)))
        #expect(rows.map { $0["n"] as? Int } == [2, 1, 1])
        #expect(rows.map { $0["total"] as? Double } == [4, 4, 8])
    }

    /// Distinct attribute rows are ordered by the selected keys; other keys are left out.
    @Test func distinctRowsAreOrderedBySelectedKeys() throws {
        let distinct = From<Person>().tweak { $0.returnsDistinctResults = true }
        let ages = try stack.queryAttributes(distinct.orderBy(.descending(\.age)).select(.attribute(\.age))).map { $0["age"] as? Int16 }
        #expect(ages == [50, 40, 30])
        let unordered = try stack.queryAttributes(distinct.orderBy(.ascending(\.name)).select(.attribute(\.age))).map { $0["age"] as? Int16 }
        #expect(Set(unordered) == [30, 40, 50] && unordered.count == 3)
        let limited = try stack.queryAttributes(distinct.orderBy(.ascending(\.age)).tweak { $0.fetchLimit = 2; $0.fetchOffset = 1 }
            .select(.attribute(\.age))).map { $0["age"] as? Int16 }
        #expect(limited == [40, 50])
    }

    /// Plain attribute rows (no aggregate, not distinct) keep every sort key.
    @Test func attributeRowsKeepEveryOrder() throws {
        let rows = try stack.queryAttributes(From<Person>().orderBy(.descending(\.score)).tweak { $0.fetchLimit = 3 }.select(.attribute(\.name)))
        #expect(rows.map { $0["name"] as? String } == ["Dee", "Cid", "Bob"])
    }
}
