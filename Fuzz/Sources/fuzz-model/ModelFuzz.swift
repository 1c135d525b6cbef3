import Foundation
import FuzzReplay
import StrataCodegen
import StrataSchema

/// One input is the only version file of a model: it is loaded, validated, generated and verified.
/// Nothing may crash, hang or allocate without bound (the YAML reader's limits), and every
/// diagnostic must point at a line and column of a file.
enum ModelFuzz {
    static let folder: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-fuzz-model-\(getpid())/M")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? Data("model: M\nmigrationChain: [V1]\n".utf8).write(to: folder.appendingPathComponent("model.yml"))
        return folder.path
    }()

    static func run(_ bytes: UnsafeRawBufferPointer) {
        _ = FileManager.default.createFile(atPath: folder + "/V1.yml", contents: Data(bytes))
        let loaded = ModelLoader.load(directory: folder)
        for diagnostic in loaded.diagnostics where diagnostic.location.file.isEmpty || diagnostic.location.line < 1 || diagnostic.location.column < 1 {
            fatalError("a diagnostic without a position: \(diagnostic)")
        }
        _ = VerifyReport(loaded: loaded)
        guard loaded.isValid, let model = loaded.model else { return }
        do {
            _ = try CodeGenerator().generate(model)
        } catch {
            fatalError("a valid model did not generate: \(error)")
        }
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModel(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    ModelFuzz.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
#else
@main
enum ModelReplay {
    static func main() {
        replay(Array(CommandLine.arguments.dropFirst()), ModelFuzz.run)
    }
}
#endif
