import Foundation
import StrataTestSupport
import Testing
@testable import Strata

/// A read that fails leaves every kind of context able to read again: the main context, a read
/// context, a transaction (whose earlier and later changes still commit) and an unsafe
/// transaction. The failing read is a sum that overflows a 64-bit integer, which SQLite and
/// PostgreSQL both refuse while running the statement (PostgreSQL then refuses the rest of the
/// statement's transaction unless Strata recovers from it).
@Suite("Failed reads")
@MainActor
struct FailedReadTests {
    let stack: DataStack

    init() async throws {
        stack = try makeStack()
        try await stack.perform { t in
            for name in ["Ann", "Bob"] {
                let person = t.create(Into<Person>())
                person.name = name
                person.visits = Int.max
            }
        }
    }

    /// The query that fails on both backends.
    nonisolated static var overflowingSum: QueryChainBuilder<Person, Int> { From<Person>().select(Int.self, .sum(\.visits)) }

    /// Its exact error on the backend under test.
    nonisolated static var overflow: String {
        switch TestBackend.current {
        case .sqlite:
            return #"SQLite error 1: integer overflow (in: SELECT sum(t."visits") FROM "Person" AS t LIMIT ? OFFSET ?)"#
        case .postgresql:
            return "the database server refused a statement (SQLSTATE 22003): bigint out of range "
                + #"(in: SELECT CAST(sum(t."visits") AS bigint) FROM "Person" AS t LIMIT ? OFFSET ?)"#
        }
    }

    nonisolated private static func expectOverflow(_ read: () throws -> Int?) {
        #expect {
            _ = try read()
        } throws: { error in
            "\(error)" == overflow
        }
    }

    @Test func theMainContextReadsAgainAfterAFailedQuery() throws {
        Self.expectOverflow { try stack.queryValue(Self.overflowingSum) }
        #expect(try stack.fetchCount(From<Person>()) == 2)
        #expect(try stack.fetchAll(From<Person>().orderBy(.ascending(\.name))).map(\.name) == ["Ann", "Bob"])
        Self.expectOverflow { try stack.queryValue(Self.overflowingSum) }
        #expect(try stack.queryValue(From<Person>().select(Int.self, .count(\.name))) == 2)
    }

    @Test func aReadContextReadsAgainAfterAFailedQuery() async throws {
        let names = try await stack.read { reader in
            Self.expectOverflow { try reader.queryValue(Self.overflowingSum) }
            #expect(try reader.fetchCount(From<Person>()) == 2)
            return try reader.fetchAll(From<Person>().orderBy(.ascending(\.name))).map(\.name)
        }
        #expect(names == ["Ann", "Bob"])
        // The connection went back to the pool; the next read context reads with it.
        #expect(try await stack.read { try $0.fetchCount(From<Person>()) } == 2)
    }

    @Test func aTransactionGoesOnAfterAFailedQuery() async throws {
        try await stack.perform { t in
            t.create(Into<Person>()).name = "Cy"
            Self.expectOverflow { try t.queryValue(Self.overflowingSum) }
            #expect(try t.fetchCount(From<Person>()) == 3)
            try #require(try t.fetchOne(From<Person>().where(\.name == "Ann"))).visits = 1
            Self.expectOverflow { try t.queryValue(Self.overflowingSum) }
            t.create(Into<Person>()).name = "Dee"
            #expect(try t.fetchObjectIDs(From<Person>()).count == 4)
        }
        #expect(try stack.fetchAll(From<Person>().orderBy(.ascending(\.name))).map(\.name) == ["Ann", "Bob", "Cy", "Dee"])
        #expect(try stack.fetchOne(From<Person>().where(\.name == "Ann"))?.visits == 1)
    }

    /// The failed read is the transaction's first statement (on PostgreSQL the transaction then
    /// begins again), and later ones follow reads and writes (it goes back to a savepoint).
    @Test func aTransactionGoesOnAfterFailedQueriesAnywhereInIt() async throws {
        let count = try await stack.perform { t in
            Self.expectOverflow { try t.queryValue(Self.overflowingSum) }
            #expect(try t.fetchCount(From<Person>()) == 2)
            Self.expectOverflow { try t.queryValue(Self.overflowingSum) }
            Self.expectOverflow { try t.queryValue(Self.overflowingSum) }
            try #require(try t.fetchOne(From<Person>().where(\.name == "Bob"))).visits = 2
            t.create(Into<Person>()).name = "Cy"
            #expect(try t.fetchOne(From<Person>().where(\.name == "Cy"))?.name == "Cy")
            Self.expectOverflow { try t.queryValue(Self.overflowingSum) }
            #expect(try t.queryValue(From<Person>().select(Int.self, .count(\.name))) == 3)
            return try t.fetchCount(From<Person>())
        }
        #expect(count == 3)
        #expect(try stack.fetchOne(From<Person>().where(\.name == "Bob"))?.visits == 2)
        #expect(try stack.fetchCount(From<Person>()) == 3)
    }

    /// A fetch inside `fetchEach`'s closure writes the closure's changes first; failed reads after
    /// them never take them back.
    @Test func changesWrittenByAReadInsideAnotherStayAfterAFailedRead() async throws {
        try await stack.perform { t in
            _ = try t.fetchCount(From<Person>())
            try t.fetchEach(From<Person>().orderBy(.ascending(\.name))) { person in
                person.nickname = person.name + "!"
                let changed = try t.fetchCount(From<Person>().where(\.nickname != nil))
                #expect(changed >= 1)
                Self.expectOverflow { try t.queryValue(Self.overflowingSum) }
            }
            Self.expectOverflow { try t.queryValue(Self.overflowingSum) }
            #expect(try t.fetchCount(From<Person>().where(\.nickname != nil)) == 2)
        }
        #expect(try stack.fetchAll(From<Person>().orderBy(.ascending(\.name))).map(\.nickname) == ["Ann!", "Bob!"])
    }

    @Test func anUnsafeTransactionGoesOnAfterAFailedQuery() throws {
        let transaction = stack.beginUnsafe()
        transaction.create(Into<Person>()).name = "Cy"
        Self.expectOverflow { try transaction.queryValue(Self.overflowingSum) }
        #expect(try transaction.fetchCount(From<Person>()) == 3)
        try transaction.commit()
        #expect(try stack.fetchCount(From<Person>()) == 3)
    }

    /// A failed fetch inside a transaction's closure, not caught, still rolls everything back.
    @Test func anUncaughtFailedQueryRollsTheTransactionBack() async throws {
        await #expect {
            try await stack.perform { t in
                t.create(Into<Person>()).name = "Cy"
                _ = try t.queryValue(Self.overflowingSum)
            }
        } throws: { error in
            "\(error)" == Self.overflow
        }
        #expect(try stack.fetchCount(From<Person>()) == 2)
    }
}
