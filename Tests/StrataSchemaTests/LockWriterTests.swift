import Foundation
import Testing
@testable import StrataSchema

@Suite("strata lock and strata verify")
struct LockWriterTests {
    static let manifest = "model: Shop\nmigrationChain: [V1]\n"
    static let version = """
    # Shop, first release
    version: V1   # keep this comment
    entities:
      Item:
        attributes:
          name: {type: String, default: ""}   # shown in lists
          price: Decimal

    """

    private func lock(_ fixture: ModelFixture, force: Bool = false) throws -> [LockWriter.Change] {
        let changes = try LockWriter.plan(fixture.load(), force: force).get()
        try LockWriter.apply(changes)
        return changes
    }

    private func itemLock(_ fixture: ModelFixture) throws -> String {
        let version = try #require(fixture.load().model?.versions.first)
        return LockFormat.current.lock(EntityShape(try #require(version.entity(named: "Item")), in: version)).description
    }

    @Test func lockingAppendsTheBlockAndChangesNoOtherByte() throws {
        let fixture = try ModelFixture(v1: Self.version, manifest: Self.manifest)
        let item = try itemLock(fixture)
        _ = try lock(fixture)
        #expect(try fixture.read("V1.yml") == Self.version + "versionLock:\n  Item: \(item)\n")
        #expect(VerifyReport(directory: fixture.directory).exitCode == 0)
        #expect(FileManager.default.fileExists(atPath: fixture.directory + "/sealed/V1.json"))
    }

    @Test func lockingTwiceWritesNothing() throws {
        let fixture = try ModelFixture(v1: Self.version, manifest: Self.manifest)
        _ = try lock(fixture)
        let once = try fixture.read("V1.yml")
        let second = try lock(fixture)
        #expect(second.allSatisfy { $0.newContents == nil && $0.record == nil })
        #expect(try fixture.read("V1.yml") == once)
    }

    @Test func aFileWithoutATrailingNewlineGetsOne() throws {
        let text = "version: V1\nentities:\n  Item: {attributes: {name: String}}"
        let fixture = try ModelFixture(v1: text, manifest: Self.manifest)
        _ = try lock(fixture)
        #expect(try fixture.read("V1.yml").hasPrefix(text + "\nversionLock:\n  Item: [0x"))
    }

    @Test func aChangedSealedVersionIsRefusedWithoutForce() throws {
        let fixture = try ModelFixture(v1: Self.version, manifest: Self.manifest)
        _ = try lock(fixture)
        let sealed = try fixture.read("V1.yml")
        let edited = sealed.replacingOccurrences(of: "price: Decimal", with: "price: Double")
        try fixture.write("V1.yml", edited)
        let result = LockWriter.plan(fixture.load())
        guard case .failure(let failure) = result else {
            Issue.record("expected a refusal")
            return
        }
        #expect(failure.message.replacingOccurrences(of: fixture.directory + "/", with: "") == """
        V1.yml:7:7: error: version 'V1' was already sealed, and the model no longer matches its lock. \
        A sealed version may have shipped, so it must not change: add a new version instead, \
        or pass --force if this version never left your machine
        """)
        #expect(try fixture.read("V1.yml") == edited)
    }

    @Test func forceReplacesTheLockInPlace() throws {
        let fixture = try ModelFixture(v1: Self.version, manifest: Self.manifest)
        _ = try lock(fixture)
        let sealed = try fixture.read("V1.yml")
        let edited = sealed.replacingOccurrences(of: "price: Decimal", with: "price: Double")
            + "# a comment after the lock stays\n"
        try fixture.write("V1.yml", edited)
        _ = try lock(fixture, force: true)
        let newLock = try itemLock(fixture)
        let expected = Self.version.replacingOccurrences(of: "price: Decimal", with: "price: Double")
            + "versionLock:\n  Item: \(newLock)\n# a comment after the lock stays\n"
        let actual = try fixture.read("V1.yml")
        #expect(actual == expected)
        #expect(VerifyReport(directory: fixture.directory).exitCode == 0)
    }

    @Test func anEmptyLockKeyIsFilledInPlace() throws {
        let text = "version: V1\nversionLock:\nentities:\n  Item: {attributes: {name: String}}\n"
        let fixture = try ModelFixture(v1: text, manifest: Self.manifest)
        let item = try itemLock(fixture)
        _ = try lock(fixture, force: true)
        #expect(try fixture.read("V1.yml") == "version: V1\nversionLock:\n  Item: \(item)\nentities:\n  Item: {attributes: {name: String}}\n")
    }

    @Test func aFlowStyleFileIsRefused() throws {
        let fixture = try ModelFixture(v1: "{version: V1, entities: {Item: {}}}\n", manifest: Self.manifest)
        guard case .failure(let failure) = LockWriter.plan(fixture.load()) else {
            Issue.record("expected a refusal")
            return
        }
        #expect(failure.message.replacingOccurrences(of: fixture.directory + "/", with: "")
                == "V1.yml: error: the version file is one flow mapping ({...}); write it in block style so a lock can be added")
    }

    @Test func anInvalidModelLocksNothing() throws {
        let text = "version: V1\nentities:\n  Item: {attributes: {name: Strng}}\n"
        let fixture = try ModelFixture(v1: text, manifest: Self.manifest)
        #expect(throws: LockWriter.Failure.invalidModel) { try LockWriter.plan(fixture.load()).get() }
        #expect(try fixture.read("V1.yml") == text)
    }

    @Test func anUnknownVersionIsNamed() throws {
        let fixture = try ModelFixture(v1: Self.version, manifest: Self.manifest)
        guard case .failure(let failure) = LockWriter.plan(fixture.load(), versions: ["V2"]) else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure.message == "the model has no version 'V2'")
    }

    @Test func verifyNamesWhatChangedWithOldAndNewValues() throws {
        let fixture = try ModelFixture(v1: Self.version, manifest: Self.manifest)
        _ = try lock(fixture)
        let edited = try fixture.read("V1.yml")
            .replacingOccurrences(of: "price: Decimal", with: "price: {type: Double, optional: true}\n      stock: Int32")
            .replacingOccurrences(of: "default: \"\"", with: "default: \"none\"")
        try fixture.write("V1.yml", edited)
        let report = VerifyReport(directory: fixture.directory)
        #expect(report.exitCode == 1)
        #expect(report.text.replacingOccurrences(of: fixture.directory + "/", with: "") == """
        V1.yml:6:7: error: version 'V1' no longer matches its lock; a sealed version must never change: \
        undo the change and make it in a new version (a new file, added to migrationChain), or, only if \
        'V1' never shipped, reseal it with 'strata lock \(fixture.directory) --version V1 --force'
          Item
            ~ attribute 'name': default "" → "none"
            ~ attribute 'price': type Decimal → Double
            ~ attribute 'price': optional false → true
            + attribute 'stock'
        Shop: 1 version, 1 changed; not verified

        """)
    }

    @Test func withoutASealedRecordVerifyComparesHashes() throws {
        let fixture = try ModelFixture(v1: Self.version, manifest: Self.manifest)
        _ = try lock(fixture)
        try FileManager.default.removeItem(atPath: fixture.directory + "/sealed")
        let sealedLock = try itemLock(fixture)
        try fixture.write("V1.yml", try fixture.read("V1.yml").replacingOccurrences(of: "price: Decimal", with: "price: Double"))
        let report = VerifyReport(directory: fixture.directory)
        #expect(report.text.replacingOccurrences(of: fixture.directory + "/", with: "") == """
        V1.yml:4:3: error: version 'V1' no longer matches its lock; a sealed version must never change: \
        undo the change and make it in a new version (a new file, added to migrationChain), or, only if \
        'V1' never shipped, reseal it with 'strata lock \(fixture.directory) --version V1 --force'
          Item
            sealed \(sealedLock), now \(try itemLock(fixture))
          (no matching sealed/V1.json, so only the hashes can be compared)
        Shop: 1 version, 1 changed; not verified

        """)
    }

    @Test func verifyExitCodes() throws {
        let fixture = try ModelFixture(v1: Self.version, manifest: Self.manifest)
        let unsealed = VerifyReport(directory: fixture.directory)
        #expect(unsealed.exitCode == 1)
        #expect(unsealed.text.replacingOccurrences(of: fixture.directory, with: "DIR") == """
        DIR/V1.yml:2:10: error: version 'V1' has no lock; run 'strata lock DIR' to seal it
        Shop: 1 version, 1 unsealed; not verified

        """)
        _ = try lock(fixture)
        let sealed = VerifyReport(directory: fixture.directory)
        #expect(sealed.exitCode == 0)
        #expect(sealed.text == "Shop: 1 version, 1 sealed; verified\n")
        try fixture.write("V1.yml", "version: V1\nentities: {Item: {attributes: {a: Nope}}}\n")
        let broken = VerifyReport(directory: fixture.directory)
        #expect(broken.exitCode == 2)
        #expect(broken.text.hasSuffix("Shop: 1 error; locks not checked\n"))
    }

    @Test func entitiesAddedOrRemovedAfterSealingAreNamed() throws {
        let fixture = try ModelFixture(v1: Self.version, manifest: Self.manifest)
        _ = try lock(fixture)
        try fixture.write("V1.yml", try fixture.read("V1.yml").replacingOccurrences(of: "entities:\n  Item:", with: "entities:\n  Tag: {}\n  Product:"))
        let text = VerifyReport(directory: fixture.directory).text.replacingOccurrences(of: fixture.directory + "/", with: "")
        #expect(text.contains("  Item\n    - entity\n"))
        #expect(text.contains("  Product\n    + entity\n"))
        #expect(text.contains("  Tag\n    + entity\n"))
    }
}

@Suite("strata lock and line endings")
struct LockLineEndingTests {
    @Test func aCRLFFileStaysCRLF() throws {
        let text = "version: V1\r\nentities:\r\n  Item: {attributes: {name: String}}\r\n"
        let fixture = try ModelFixture(v1: text, manifest: "model: Shop\nmigrationChain: [V1]\n")
        let changes = try LockWriter.plan(fixture.load()).get()
        try LockWriter.apply(changes)
        let written = try fixture.read("V1.yml")
        #expect(written.hasPrefix(text + "versionLock:\r\n  Item: [0x"))
        #expect(written.hasSuffix("]\r\n"))
        #expect(!written.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(VerifyReport(directory: fixture.directory).exitCode == 0)
    }
}
