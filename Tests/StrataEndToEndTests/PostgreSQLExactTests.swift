// Left out of builds without the PostgreSQL trait (see Package.swift).
#if PostgreSQL
import Foundation
import Strata
import StrataPostgres
import StrataTestSupport
import Testing

/// The exact-values property test on PostgreSQL: every attribute type of random samples (edge
/// values included) reads back bit for bit from a new stack, through inserts, updates and
/// queries, except a NaN's payload (PostgreSQL keeps one NaN); and text holds no U+0000, which
/// PostgreSQL's text cannot hold (it refuses the commit, by name).
@Suite("Exact round trips on PostgreSQL", Postgres.available)
@MainActor
struct PostgreSQLExactTests {
    @Test func randomValuesReadBackBitForBitButForNaNPayloads() async throws {
        let url = try Postgres.newDatabaseURL("exact")
        let written = ExactRoundTripTests.randomValues().map { values in
            var values = values
            values.text = withoutNul(values.text)
            values.optionalText = values.optionalText.map(withoutNul)
            return values
        }
        let stack = DataStack(Exact.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: url))
        try await stack.perform { transaction in
            for values in written { values.apply(to: transaction.create(Into<Sample>())) }
        }
        try Self.expectSame(Self.reread(url), written)
        let shifted = try await ExactRoundTripTests.shiftEverySample(in: stack, written: written)
        try Self.expectSame(Self.reread(url), shifted)
    }

    @Test func textHoldingANulCharacterIsRefusedByName() async throws {
        let stack = DataStack(Shop.schemaHistory)
        try await stack.addStorage(PostgreSQLStore(url: Postgres.newDatabaseURL("nul")))
        let error = await #expect(throws: StrataError.self) {
            try await stack.perform { transaction in transaction.create(Into<Product>()).sku = "a\u{0}b" }
        }
        guard case .server(let code, let message, _)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(code == "22021")
        #expect(message == "PostgreSQL's text cannot hold the character U+0000 (NUL), which SQLite's can: store such values as Data")
        #expect(try stack.fetchCount(From<Product>()) == 0)
    }

    /// `text` with each U+0000 replaced by "0".
    private func withoutNul(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(scalar == "\u{0}" ? "0" : scalar) }
        return String(scalars)
    }

    /// What a new stack reads from the database, ordered by key.
    static func reread(_ url: String) throws -> [ExactValues] {
        let stack = DataStack(Exact.schemaHistory)
        try stack.addStorageAndWait(PostgreSQLStore(url: url))
        return try stack.fetchAll(From<Sample>().orderBy(.ascending(\.key))).map(ExactValues.init)
    }

    static func expectSame(_ read: [ExactValues], _ written: [ExactValues]) {
        #expect(read.count == written.count)
        for (got, expected) in zip(read, written) {
            let differences = got.differences(from: expected, nanPayloads: false)
            #expect(differences.isEmpty, "sample \(expected.key) changed: \(differences.joined(separator: ", "))")
        }
    }
}
#endif
