import Foundation
import Strata
import StrataTestSupport
import Testing

/// An entity of 70 columns: the change and assignment bits of columns from the 65th on live
/// apart from the first 64, and every path that reads or clears them must see both.
@Suite("Entities of more than 64 columns")
struct WideEntityTests {
    private func stack() throws -> DataStack {
        let stack = DataStack(Wide.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        return stack
    }

    @Test func aRequiredColumnPastTheSixtyFourthMustBeGiven() async throws {
        let stack = try stack()
        await #expect(throws: StrataError.missingValue(entity: "Gauge", attribute: "v68")) {
            try await stack.perform { transaction in
                transaction.create(Into<Gauge>()).v69 = 5
            }
        }
        #expect(try await stack.perform { try $0.fetchCount(From<Gauge>()) } == 0)
    }

    @Test func changesOnEitherSideOfTheSixtyFourthColumnAreWritten() async throws {
        let stack = try stack()
        let id = try await stack.perform { transaction in
            let gauge = transaction.create(Into<Gauge>())
            gauge.v68 = "first"
            gauge.v69 = 7
            gauge.v1 = 1
            return gauge.objectID(as: Gauge.self)
        }
        // A change past the 64th column alone, then one below and one past it together.
        try await stack.perform { transaction in
            try #require(transaction.fetchExisting(id)).v66 = 3
        }
        try await stack.perform { transaction in
            let gauge = try #require(transaction.fetchExisting(id))
            gauge.v65 = 4
            gauge.v2 = 2
        }
        let values = try await stack.perform { transaction in
            let gauge = try #require(transaction.fetchExisting(id))
            return [gauge.v1, gauge.v2, gauge.v65, gauge.v66, gauge.v67, gauge.v69].map(String.init) + [gauge.v68]
        }
        #expect(values == ["1", "2", "4", "3", "0", "7", "first"])
    }

    @MainActor
    @Test func aCommitReportsTheColumnsPastTheSixtyFourthItChanged() async throws {
        let stack = try stack()
        var iterator = stack.changes.makeAsyncIterator()
        let id = try await stack.perform { transaction in
            let gauge = transaction.create(Into<Gauge>())
            gauge.v68 = "first"
            return gauge.objectID(as: Gauge.self)
        }
        _ = await iterator.next()
        try await stack.perform { transaction in
            let gauge = try #require(transaction.fetchExisting(id))
            gauge.v3 = 1
            gauge.v67 = 2
            gauge.v3 = 4
        }
        let changed = try #require(await iterator.next())
        #expect(changed.changes(of: Gauge.self)?.updated == [AnyObjectID(id): ["v3", "v67"]])
    }
}
