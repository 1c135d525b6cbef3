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
        if size(of: path + "-wal") ?? 0 == 0 {
            return try readThrough(uri(path, query: "immutable=1"), file: file, read)
        }
        if FileManager.default.fileExists(atPath: path + "-shm") {
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
        defer { close(descriptor) }
        var start = [UInt8](repeating: 0, count: header.count)
        var filled = 0
        while filled < start.count {
            let count = start.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        guard filled == 0 || start.elementsEqual(header) else {
            throw .notAStore(file: file, reason: "the file is not a SQLite database (file is not a database)")
        }
    }

    /// The system's `read`, which this type's own `read` hides.
    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
        #else
        Darwin.read(descriptor, buffer, count)
        #endif
    }

    /// The size of a file in bytes, or nil when there is none. A `stat` call: Foundation's file
    /// attributes also look up the owner's and group's names, reading the system's user and
    /// group databases on every open of a store.
    static func size(of path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int(status.st_size)
    }

    /// A `file:` URI for `path` with a query: every byte but the URL path characters
    /// percent-encoded, as `addingPercentEncoding` with `.urlPathAllowed` less `?`, `#` and `%`
    /// does, at a hundredth of its cost (the tests hold the two to the same output).
    static func uri(_ path: String, query: String) -> String {
        var encoded: [UInt8] = Array("file:".utf8)
        encoded.reserveCapacity(path.utf8.count + query.count + 8)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in path.utf8 {
            if isPathCharacter(byte) {
                encoded.append(byte)
            } else {
                encoded.append(UInt8(ascii: "%"))
                encoded.append(hex[Int(byte >> 4)])
                encoded.append(hex[Int(byte & 0xF)])
            }
        }
        encoded.append(UInt8(ascii: "?"))
        encoded.append(contentsOf: query.utf8)
        return String(decoding: encoded, as: UTF8.self)
    }

    /// Whether a byte stands for itself in the URI: letters, digits and `-._~!$&'()*+,=:@/`.
    private static func isPathCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~!$&'()*+,=:@/".utf8.contains(byte)
        }
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
