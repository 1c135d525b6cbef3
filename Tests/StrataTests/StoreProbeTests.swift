import Foundation
import Testing
@testable import Strata

/// The probe's copy of a store and its log, for a `-wal` found without a usable `-shm`.
@Suite("Store probe")
struct StoreProbeTests {
    /// A file with one row, written through a connection that is closed again (which folds the
    /// log into the file and removes it).
    private func storeWithOneRow() throws -> String {
        let url = temporaryStoreURL("Probe.sqlite")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let connection = try SQLiteConnection(path: url.path, readOnly: false)
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (7)")
        return url.path
    }

    private func count(_ connection: SQLiteConnection) throws(StrataError) -> Int64 {
        let statement = try connection.prepare("SELECT count(*) FROM t")
        guard try statement.step() else { return -1 }
        return statement.row.int64(0)
    }

    /// Another connection closing between the probe's look at the log and its copy removes the
    /// log: the copy then reports it gone (the probe reads the file alone), not an error.
    @Test func aLogGoneBeforeItsCopyIsNoError() throws {
        let path = try storeWithOneRow()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let copied = try StoreProbe.readCopy(path, file: "Probe.sqlite") { connection throws(StrataError) in try count(connection) }
        #expect(copied == nil)
        #expect(try StoreProbe.read(path, file: "Probe.sqlite") { connection throws(StrataError) in try count(connection) } == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// A store file that is gone is still an error, with the file system's reason.
    @Test func aStoreGoneBeforeItsCopyIsAnError() throws {
        let path = try storeWithOneRow()
        try FileManager.default.removeItem(atPath: path)
        #expect(throws: StrataError.fileSystem(path: path, message: "cannot read the store's log without changing it: The operation could not be completed. The file doesn’t exist.")) {
            try StoreProbe.readCopy(path, file: "Probe.sqlite") { connection throws(StrataError) in try count(connection) }
        }
    }

    /// The probe's URI encodes a path exactly as Foundation's percent-encoding with the URL path
    /// characters less `?`, `#` and `%` does: over random paths of ASCII punctuation, letters,
    /// spaces and characters outside ASCII, and over each byte alone.
    @Test func uriEncodesPathsAsFoundationDoes() {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let alphabet = Array("aZ09 -._~!$&'()*+,;=:@/?#%[]{}<>\"^`|\t\né日本🙂\u{0}\u{7F}")
        var random = SystemRandomNumberGenerator()
        var paths = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        for _ in 0..<2_000 {
            paths.append(String((0..<Int.random(in: 0...24, using: &random)).map { _ in alphabet.randomElement(using: &random)! }))
        }
        for path in paths {
            let expected = "file:" + path.addingPercentEncoding(withAllowedCharacters: allowed)! + "?mode=ro"
            #expect(StoreProbe.uri(path, query: "mode=ro") == expected, "\(Array(path.utf8))")
        }
    }

    /// A file's size is read with `stat`; a missing file has none.
    @Test func sizeOfAFileAndOfNone() throws {
        let url = temporaryStoreURL("Sized.bin")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        #expect(StoreProbe.size(of: url.path) == nil)
        try Data(repeating: 7, count: 4_321).write(to: url)
        #expect(StoreProbe.size(of: url.path) == 4_321)
    }
}
