import Foundation
import StrataTestSupport
import Strata
import StrataTesting
import Testing

/// Every attribute type reads back exactly what was written, to the last bit: through commits,
/// the generator's defaults, imports and a migration that copies every row. Each store is read by
/// a new stack, so values come from the file and not from objects still in memory.
@Suite("Exact round trips")
@MainActor
struct ExactRoundTripTests {
    static let seed: UInt64 = 0x5EED_0F_E4AC7
    static let count = 300

    static func storeURL() -> URL {
        TestFolders.url("strata-exact").appendingPathComponent("Exact.sqlite")
    }

    /// Random samples; `optionalFlag` is never nil unless `forFirstVersion`, since V2 requires it.
    static func randomValues(seed: UInt64 = seed, forFirstVersion: Bool = false) -> [ExactValues] {
        var generator = SeededGenerator(state: seed)
        return (0..<count).map { index in
            var values = ExactValues(key: Int64(index), using: &generator)
            if !forFirstVersion { values.optionalFlag = values.optionalFlag ?? false }
            return values
        }
    }

    /// What a new stack reads from the store at `url`, ordered by key.
    static func reread(_ url: URL) throws -> [ExactValues] {
        let stack = DataStack(Exact.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: url))
        return try stack.fetchAll(From<Sample>().orderBy(.ascending(\.key))).map(ExactValues.init)
    }

    static func expectSame(_ read: [ExactValues], _ written: [ExactValues], seed: UInt64 = seed) {
        #expect(read.count == written.count)
        for (got, expected) in zip(read, written) {
            let differences = got.differences(from: expected)
            #expect(differences.isEmpty, "sample \(expected.key) of seed \(seed) changed: \(differences.joined(separator: ", "))")
        }
    }

    @Test func randomValuesReadBackBitForBit() async throws {
        let url = Self.storeURL()
        let written = Self.randomValues()
        let stack = DataStack(Exact.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: url))
        try await stack.perform { transaction in
            for values in written { values.apply(to: transaction.create(Into<Sample>())) }
        }
        let shifted = try await Self.shiftEverySample(in: stack, written: written)
        Self.expectSame(try Self.reread(url), shifted)
    }

    /// Updates every sample to the next one's values (an update writes through the other
    /// statement), and returns what the store must then hold.
    static func shiftEverySample(in stack: DataStack, written: [ExactValues]) async throws -> [ExactValues] {
        try await stack.perform { transaction in
            let samples = try transaction.fetchAll(From<Sample>().orderBy(.ascending(\.key)))
            for (sample, values) in zip(samples, written.dropFirst()) {
                var shifted = values
                shifted.key = sample.key
                shifted.apply(to: sample)
            }
        }
        var expected = zip(written, written.dropFirst()).map { first, next in
            var shifted = next
            shifted.key = first.key
            return shifted
        }
        expected.append(written.last!)
        return expected
    }

    @Test func queriesReturnTheExactValues() async throws {
        let stack = DataStack(Exact.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: Self.storeURL()))
        let written = Self.randomValues()
        try await stack.perform { transaction in
            for values in written { values.apply(to: transaction.create(Into<Sample>())) }
        }
        for values in written.prefix(40) {
            let real = try stack.queryValue(From<Sample>().select(Double.self, .attribute(\.real)).where(\.key == values.key))
            #expect(real?.bitPattern == values.real.bitPattern)
            let moment = try stack.queryValue(From<Sample>().select(Date.self, .attribute(\.moment)).where(\.key == values.key))
            #expect(moment?.timeIntervalSinceReferenceDate.bitPattern == values.moment.timeIntervalSinceReferenceDate.bitPattern)
        }
        // -0.0 is equal to 0 in a `Where`, as in Swift, and keeps its sign in the file.
        let zeros = written.filter { $0.real == 0 }.count
        #expect(try stack.fetchCount(From<Sample>().where(\.real == 0.0)) == zeros)
    }

    @Test func defaultsWrittenByTheGeneratorReadBackExactly() async throws {
        let url = Self.storeURL()
        let stack = DataStack(Exact.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: url))
        try await stack.perform { transaction in
            transaction.create(Into<Sample>()).key = 1
        }
        let reader = DataStack(Exact.schemaHistory)
        try reader.addStorageAndWait(SQLiteStore(fileURL: url))
        let sample = try #require(try reader.fetchOne(From<Sample>()))
        #expect(sample.flag == true)
        #expect(sample.small == .min)
        #expect(sample.medium == .max)
        #expect(sample.large == .min)
        #expect(sample.word == .max)
        #expect(sample.real.bitPattern == (-0.0 as Double).bitPattern)
        #expect(sample.tiny == .leastNonzeroMagnitude)
        #expect(sample.huge == .greatestFiniteMagnitude)
        #expect(sample.single == .leastNonzeroMagnitude)
        #expect(sample.amount == Decimal(string: "-1234567890.1234567890123456789012345678", locale: Locale(identifier: "en_US_POSIX"))!)
        #expect(sample.amount.description == "-1234567890.1234567890123456789012345678")
        #expect(sample.fine == Decimal(sign: .plus, exponent: -38, significand: 1))
        // The written instant, to the nearest Double of seconds since 2001: 0.1, not 0.1 rounded
        // through seconds since 1970.
        #expect(sample.moment.timeIntervalSinceReferenceDate == 0.1)
        #expect(sample.before.timeIntervalSinceReferenceDate == -978_307_200.25)
        #expect(Array(sample.text.unicodeScalars) == Array("nul \0 quote \" backslash \\ emoji 🧪 é".unicodeScalars))
        #expect(sample.bytes == Data())
        #expect(sample.token == UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        #expect(sample.link.absoluteString == "https://example.com/a%20b?q=1&r=%C3%A9#frag")
    }

    @Test func importedValuesReadBackExactly() async throws {
        let url = Self.storeURL()
        let written = Self.randomValues()
        let stack = DataStack(Exact.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: url))
        let sources = written.map(\.importSource)
        try stack.perform(synchronous: { transaction in
            _ = try transaction.importUniqueObjects(Into<Sample>(), sourceArray: sources)
        })
        // Only the imported keys are compared; the others keep their defaults.
        let read = try Self.reread(url)
        #expect(read.count == written.count)
        for (got, expected) in zip(read, written) {
            var imported = got
            imported.optionalFlag = expected.optionalFlag
            imported.optionalLarge = expected.optionalLarge
            imported.optionalSingle = expected.optionalSingle
            imported.optionalAmount = expected.optionalAmount
            imported.optionalBytes = expected.optionalBytes
            imported.optionalToken = expected.optionalToken
            imported.optionalLink = expected.optionalLink
            imported.jsonPayload = expected.jsonPayload
            imported.binaryPayload = expected.binaryPayload
            #expect(imported.differences(from: expected).isEmpty, "sample \(expected.key): \(imported.differences(from: expected))")
        }
    }

    @Test func importedJSONTextKeepsItsEdgeValues() async throws {
        let json = """
            {"key": 7, "small": -32768, "medium": 2147483647, "large": -9223372036854775808, "word": 9223372036854775807,
             "real": 5e-324, "single": 1e-45, "amount": "-1234567890.1234567890123456789012345678",
             "moment": "2024-02-29T12:34:56.789Z", "text": "nul \\u0000 emoji \\ud83e\\uddea"}
            """
        let source = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let stack = DataStack(Exact.schemaHistory)
        try stack.addStorageAndWait(InMemoryStore())
        let sample = try stack.perform(synchronous: { transaction in
            try transaction.importUniqueObject(Into<Sample>(), source: source).map { $0.key }
        })
        #expect(sample == 7)
        let read = try #require(try stack.fetchOne(From<Sample>()))
        #expect(read.small == .min && read.medium == .max && read.large == .min && read.word == .max)
        #expect(read.real == .leastNonzeroMagnitude)
        #expect(read.single == .leastNonzeroMagnitude)
        #expect(read.amount.description == "-1234567890.1234567890123456789012345678")
        #expect(read.moment == Date(timeIntervalSince1970: 1_709_210_096.789))
        #expect(Array(read.text.unicodeScalars) == Array("nul \0 emoji 🧪".unicodeScalars))
    }

    @Test func aMigrationCopiesEveryValueExactly() async throws {
        let url = Self.storeURL()
        let written = Self.randomValues(seed: Self.seed + 1, forFirstVersion: true)
        try StoreSeeding.seedStore(at: url, history: Exact.schemaHistory, version: "V1", objects: written.enumerated().map { index, values in
            SeedObject("Sample", id: Int64(index + 1), values.seedAttributes)
        })
        let stack = DataStack(Exact.schemaHistory)
        #expect(try stack.requiredMigrations(for: SQLiteStore(fileURL: url)) == [.lightweight(sourceVersion: "V1", destinationVersion: "V2")])
        try await stack.addStorage(SQLiteStore(fileURL: url))
        // V2 makes `optionalFlag` required with a default, so the table is rebuilt and every row copied.
        let expected = written.map { values in
            var migrated = values
            migrated.optionalFlag = values.optionalFlag ?? false
            migrated.jsonPayload = nil
            migrated.binaryPayload = nil
            return migrated
        }
        Self.expectSame(try Self.reread(url), expected, seed: Self.seed + 1)
    }

    @Test(arguments: [0, 16 << 20])
    func dataOfAnySizeReadsBackWhole(size: Int) async throws {
        var generator = SeededGenerator(state: UInt64(size))
        var bytes = [UInt8](repeating: 0, count: size)
        for index in stride(from: 0, to: size, by: 8) {
            let word = generator.next()
            for offset in 0..<min(8, size - index) { bytes[index + offset] = UInt8(truncatingIfNeeded: word >> (8 * offset)) }
        }
        let url = Self.storeURL()
        let stack = DataStack(Exact.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: url))
        let data = Data(bytes)
        try await stack.perform { transaction in
            let sample = transaction.create(Into<Sample>())
            sample.key = 1
            sample.bytes = data
            sample.optionalBytes = data
        }
        let read = try #require(try Self.reread(url).first)
        #expect(read.bytes == data)
        #expect(read.optionalBytes == data)
    }

    @Test func aValueThatCannotBeEncodedIsAnErrorAndNothingIsSaved() async throws {
        let url = Self.storeURL()
        let stack = DataStack(Exact.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: url))
        await #expect(throws: StrataError.encodingFailed(type: "ExactPayload", coder: "json",
                                                          reason: "this payload refuses to be encoded")) {
            try await stack.perform { transaction in
                transaction.create(Into<Sample>()).key = 1
                let refused = transaction.create(Into<Sample>())
                refused.key = 2
                refused.jsonPayload = ExactPayload(number: 1, when: Date(), note: ExactPayload.refusal)
            }
        }
        #expect(try Self.reread(url).isEmpty)
        #expect(StrataError.encodingFailed(type: "ExactPayload", coder: "json", reason: "this payload refuses to be encoded").description
            == "a ExactPayload value could not be encoded as json, so nothing was saved: this payload refuses to be encoded")
    }
}
