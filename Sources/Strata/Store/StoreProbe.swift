import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads an existing store without changing a byte of it, its `-wal` or its `-shm`, so that a
/// file the stack refuses is left exactly as it was found.
///
/// A plain read-only SQLite connection is not enough: it rebuilds the `-shm` index, creates a
/// `-wal` beside a file in WAL mode, and reads the pages of a `-wal` left beside a file that is
/// no longer a database. So the probe checks the file's header itself, then reads through a
/// connection that cannot write anything:
/// - no `-wal` (or an empty one): `immutable=1`, which reads the main file alone and creates
///   nothing beside it;
/// - a `-wal` and a `-shm`: `mode=ro&readonly_shm=1`, which opens the `-shm` read-only;
/// - a `-wal` without its `-shm` (which SQLite cannot read without writing one), or beside a
///   `-shm` a read-only connection cannot use (a killed writer's): a private copy of the file and
///   its log, read and deleted.
enum StoreProbe {
    /// The first 16 bytes of every SQLite database file.
    static let header = Data("SQLite format 3\0".utf8)

    /// Runs `read` on a connection that sees the store's committed state without writing to any
    /// of its files. `file` names the store in errors.
    static func read<T>(_ path: String, file: String, _ read: (SQLiteConnection) throws(StrataError) -> T) throws(StrataError) -> T {
        try checkHeader(path, file: file)
        let manager = FileManager.default
        let walSize = (try? manager.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? nil
        let hasLog = (walSize ?? 0) > 0
        if !hasLog {
            return try readThrough(uri(path, query: "immutable=1"), file: file, read)
        }
        if manager.fileExists(atPath: path + "-shm") {
            do {
                return try readThrough(uri(path, query: "mode=ro&readonly_shm=1"), file: file, read, raw: true)
            } catch {
                // An index a killed writer left can be one a read-only connection cannot trust
                // or rebuild (SQLite's "locking protocol", a busy or read-only recovery): read a
                // copy of the file and its log instead, where SQLite rebuilds the index itself.
                guard case .sqlite = error else { throw StoreOpener.notAStore(error, file: file) }
            }
        }
        if let result = try readCopy(path, file: file, read) { return result }
        // The log went between the size check and the copy: the last connection of another stack
        // or process checkpointed it into the file and removed it, so the file alone now holds
        // every commit, read as when there was no log.
        return try readThrough(uri(path, query: "immutable=1"), file: file, read)
    }

    /// Runs `read` on a private copy of the store and its log, deleted afterwards; nil when the
    /// log is no longer there to copy.
    static func readCopy<T>(_ path: String, file: String, _ read: (SQLiteConnection) throws(StrataError) -> T) throws(StrataError) -> T? {
        let manager = FileManager.default
        let copy = manager.temporaryDirectory.appendingPathComponent("strata-probe-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: copy) }
        let copied = copy.appendingPathComponent("store.sqlite").path
        do {
            try manager.createDirectory(at: copy, withIntermediateDirectories: true)
            try manager.copyItem(atPath: path, toPath: copied)
            try manager.copyItem(atPath: path + "-wal", toPath: copied + "-wal")
        } catch {
            if manager.fileExists(atPath: path), !manager.fileExists(atPath: path + "-wal") { return nil }
            throw .fileSystem(path: path, message: "cannot read the store's log without changing it: \(error.localizedDescription)")
        }
        return try readThrough(copied, file: file, read)
    }

    /// Refuses a file that is not empty and does not start as a SQLite database, before SQLite
    /// reads it (it would otherwise read the pages of a `-wal` left beside it).
    private static func checkHeader(_ path: String, file: String) throws(StrataError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            let code = errno
            if code == EMFILE || code == ENFILE {
                throw StoreOpener.cannotOpen(.sqlite(code: 14, message: SQLiteConnection.tooManyFiles + " (" + String(cString: strerror(code)) + ")",
                                                     sql: nil), file: file)
            }
            throw .cannotOpenStore(file: file, reason: "it cannot be read (\(String(cString: strerror(code)))); check the permissions of the file and its folder")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        defer { close(descriptor) }
        let start = (try? handle.read(upToCount: header.count)) ?? Data()
        guard start.isEmpty || start == header else {
            throw .notAStore(file: file, reason: "the file is not a SQLite database (file is not a database)")
        }
    }

    /// A `file:` URI for `path` with a query, its special characters percent-encoded.
    private static func uri(_ path: String, query: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        return "file:" + (path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path) + "?" + query
    }

    /// Runs `read` on a read-only connection to `name`. Errors name `file`; with `raw`, SQLite's
    /// own errors are passed on unchanged, for the caller to decide whether to read another way.
    private static func readThrough<T>(_ name: String, file: String, _ read: (SQLiteConnection) throws(StrataError) -> T,
                                       raw: Bool = false) throws(StrataError) -> T {
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: name, readOnly: true)
            try connection.execute("PRAGMA schema_version")
        } catch {
            if raw, case .sqlite = error { throw error }
            throw StoreOpener.cannotOpen(StoreOpener.notAStore(error, file: file), file: file)
        }
        do {
            return try read(connection)
        } catch {
            if raw, case .sqlite = error { throw error }
            throw StoreOpener.notAStore(error, file: file)
        }
    }
}
