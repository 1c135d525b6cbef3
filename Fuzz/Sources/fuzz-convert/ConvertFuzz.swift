import Foundation
import FuzzReplay
import StrataConvert
import StrataSchema

/// One input is the `contents` of a Core Data model's only version: it is read as XML, as a model,
/// and converted. Nothing may crash or hang; an XML error must point at a line and column; and the
/// YAML written must read back as YAML with no error, whatever names and values the input held.
enum ConvertFuzz {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        let tree: XMLTree
        do {
            tree = try XMLReader.parse(Array(bytes))
        } catch {
            if error.line < 1 || error.column < 1 { fatalError("an XML error without a position: \(error)") }
            return
        }
        guard let model = try? CoreDataModelReader.read(tree, file: "contents") else { return }
        let bundle = ModelBundle(name: "Fuzz", versions: [ModelBundle.Version(name: "V1", file: "contents", model: model)], currentVersion: nil)
        guard let converted = try? ModelConverter.convert(bundle) else { return }
        for file in converted.files {
            let read = YAMLReader.read(Array(file.contents.utf8), file: file.name)
            if !read.diagnostics.isEmpty || read.root?.entries == nil {
                fatalError("the converter wrote YAML that does not read back: \(read.diagnostics)\n\(file.contents)")
            }
        }
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConvert(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    ConvertFuzz.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
#else
@main
enum ConvertReplay {
    static func main() {
        replay(Array(CommandLine.arguments.dropFirst()), ConvertFuzz.run)
    }
}
#endif
