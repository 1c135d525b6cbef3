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
}
