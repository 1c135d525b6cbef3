import Foundation
import Strata
import StrataTestSupport
import Testing

/// Snapshots as JSON: a value JSON cannot hold is refused by name, never written as text no JSON
/// reader takes.
@Suite("Snapshots as JSON")
@MainActor
struct SnapshotJSONTests {
    /// Foundation's `JSONEncoder` writes a `Decimal` NaN as a bare `NaN`.
    @Test func aDecimalNaNIsRefusedByName() async throws {
        let stack = DataStack(Exact.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        try await stack.perform { transaction in
            // The model's default text holds U+0000, which PostgreSQL's text cannot.
            let sample = transaction.create(Into<Sample>())
            sample.key = 1
            sample.text = "one"
            sample.optionalAmount = Decimal.nan
            let other = transaction.create(Into<Sample>())
            other.key = 2
            other.text = "two"
            other.amount = Decimal.nan
        }
        let samples = try stack.fetchAll(From<Sample>().orderBy(.ascending(\.key))).map(Sample.Snapshot.init)
        for (snapshot, name) in zip(samples, ["optionalAmount", "amount"]) {
            #expect {
                try JSONEncoder().encode(snapshot)
            } throws: { error in
                guard case EncodingError.invalidValue(_, let context) = error else { return false }
                return context.debugDescription == "'\(name)' is a Decimal NaN, which has no JSON form"
            }
        }
        var finite = samples[0]
        finite.optionalAmount = Decimal(string: "-0.5")
        let json = try JSONEncoder().encode(finite)
        #expect(try JSONSerialization.jsonObject(with: json) is [String: Any])
        #expect(try JSONDecoder().decode(Sample.Snapshot.self, from: json) == finite)
    }
}
