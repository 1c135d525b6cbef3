import Foundation
import Testing
@testable import Strata

/// Stores written in an older layout format are brought to the current one when opened, and a
/// store of a newer format is refused without a change.
@Suite("Layout formats")
@MainActor
struct LayoutFormatTests {
    /// A Zoo store holding one person born at `created`, rewritten as layout format 1 wrote it
    /// (seconds since 1970, `layout` = 1), its log folded into the file.
    private func formatOneStore(created: Date) async throws -> URL {
        let url = temporaryStoreURL()
        let stack = DataStack(Zoo.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: url))
        try await stack.perform { transaction in
            let person = transaction.create(Into<Person>())
            person.name = "Ann"
            person.createdAt = created
        }
        let connection = try SQLiteConnection(path: url.path, readOnly: false)
        _ = try StoreOpener.rows(connection, "UPDATE \"Person\" SET \"createdAt\" = ?", [.real(created.timeIntervalSince1970)])
        _ = try StoreOpener.rows(connection, "UPDATE strata_metadata SET value = '1' WHERE key = 'layout'")
        _ = try StoreOpener.rows(connection, "PRAGMA wal_checkpoint(TRUNCATE)")
        return url
    }

    @Test func aFormatOneStoreReadsItsDatesAsTheyWere() async throws {
        // Format 1 read a date as Date(timeIntervalSince1970:): the upgrade must give that Date.
        let created = Date(timeIntervalSince1970: 1_700_000_000.123_456_7)
        let url = try await formatOneStore(created: created)
        let stack = DataStack(Zoo.schemaHistory)
        try stack.addStorageAndWait(SQLiteStore(fileURL: url))
        let person = try #require(try stack.fetchOne(From<Person>()))
        #expect(person.createdAt.timeIntervalSinceReferenceDate.bitPattern
            == Date(timeIntervalSince1970: created.timeIntervalSince1970).timeIntervalSinceReferenceDate.bitPattern)
        let connection = try SQLiteConnection(path: url.path, readOnly: true)
        #expect(try StoreOpener.metadata(of: connection)["layout"] == "2")
    }

    @Test func aNewStoreRecordsTheCurrentFormat() throws {
        let url = temporaryStoreURL()
        try DataStack(Zoo.schemaHistory).addStorageAndWait(SQLiteStore(fileURL: url))
        #expect(try StoreOpener.metadata(of: SQLiteConnection(path: url.path, readOnly: true))["layout"] == String(LayoutFormat.current))
    }

    @Test(arguments: [
        ("3", StrataError.cannotOpenStore(file: "F", reason: "it was written in layout format 3, newer than the format 2 this version "
                                          + "of Strata reads; open it with the version of Strata that wrote it, or a newer one")),
        ("two", StrataError.notAStore(file: "F", reason: "its metadata records an unknown layout format \"two\"")),
    ])
    func anUnknownFormatIsRefusedByteForByte(format: String, expected: StrataError) async throws {
        let url = temporaryStoreURL()
        try DataStack(Zoo.schemaHistory).addStorageAndWait(SQLiteStore(fileURL: url))
        let connection = try SQLiteConnection(path: url.path, readOnly: false)
        _ = try StoreOpener.rows(connection, "UPDATE strata_metadata SET value = ? WHERE key = 'layout'", [.text(format)])
        _ = try StoreOpener.rows(connection, "PRAGMA wal_checkpoint(TRUNCATE)")
        let before = try Data(contentsOf: url)
        let error: StrataError
        switch expected {
        case .cannotOpenStore(_, let reason): error = .cannotOpenStore(file: url.path, reason: reason)
        case .notAStore(_, let reason): error = .notAStore(file: url.path, reason: reason)
        default: Issue.record("unexpected case"); return
        }
        await #expect(throws: error) {
            try await DataStack(Zoo.schemaHistory).addStorage(SQLiteStore(fileURL: url))
        }
        #expect(try Data(contentsOf: url) == before)
    }
}
