import Foundation
import FuzzReplay
import StrataSyncCore

/// One input is the body of a sync server's answer to a pull, read as a device reads it: the
/// reader either refuses it with a `SyncProtocolError` or reads a page, and a page it read writes
/// back to JSON that it, and `JSONDecoder`, read back equal. Nothing may crash or hang.
enum SyncFuzz {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        let page: PullResponse
        do {
            page = try PullResponse(jsonBytes: Array(bytes))
        } catch {
            guard !error.description.isEmpty else { fatalError("a refusal without a message") }
            return
        }
        let written = page.jsonBytes()
        guard let again = try? PullResponse(jsonBytes: written), again == page else {
            fatalError("a page read does not read back equal from its own JSON: \(String(decoding: written, as: UTF8.self))")
        }
        guard let decoded = try? JSONDecoder().decode(PullResponse.self, from: Data(written)), decoded == page else {
            fatalError("JSONDecoder reads the written page differently: \(String(decoding: written, as: UTF8.self))")
        }
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSync(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    SyncFuzz.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
#else
@main
enum SyncReplay {
    static func main() {
        replay(Array(CommandLine.arguments.dropFirst()), SyncFuzz.run)
    }
}
#endif
