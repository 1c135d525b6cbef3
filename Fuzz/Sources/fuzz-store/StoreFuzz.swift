import Foundation
import FuzzReplay
import Strata

/// One input is the bytes of a file opened as a store of a small model: opening it either works
/// (the bytes were a store of this model) or throws a `StrataError` naming the file; then, when
/// it opened, reading and writing it work or throw. Nothing may crash or hang.
enum StoreFuzz {
    final class Note: StrataObject {
        override class var entityName: String { "Note" }
    }

    static let history = SchemaHistory(model: "Fuzz", versions: [
        ModelVersion("V1", entities: [
            EntityDescription("Note", attributes: [AttributeDescription("text", .string, optional: true)]),
        ], versionLock: VersionLock(["Note": [1, 2, 3, 4]])),
    ], migrationChain: ["V1"], current: "V1", entityTypes: [Note.self])

    static let path: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-fuzz-store-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("Fuzz.sqlite").path
    }()

    static func run(_ bytes: UnsafeRawBufferPointer) {
        // Refusals are the expected outcome; only a trap or a hang is a finding.
        StrataDefaults.logger = ConsoleLogger(minimumLevel: .fatal)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        let stack = DataStack(history)
        do {
            try stack.addStorageAndWait(SQLiteStore(fileURL: URL(fileURLWithPath: path), busyTimeout: .zero))
        } catch {
            guard "\(error)".contains(path) else { fatalError("a refusal that does not name the file: \(error)") }
            return
        }
        _ = try? stack.perform(synchronous: { transaction in
            _ = try transaction.fetchAll(From<Note>())
            _ = transaction.create(Into<Note>())
        })
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStore(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    StoreFuzz.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
#else
@main
enum StoreReplay {
    static func main() {
        replay(Array(CommandLine.arguments.dropFirst()), StoreFuzz.run)
    }
}
#endif
