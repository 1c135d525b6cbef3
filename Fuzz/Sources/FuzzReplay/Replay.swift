import Foundation

/// Runs `body` on the bytes of each file (or each file in each folder) named in `arguments`, and
/// prints how many it ran: a fuzz target's regression run over its corpus and its crashes.
public func replay(_ arguments: [String], _ body: (UnsafeRawBufferPointer) -> Void) {
    var files: [String] = []
    for argument in arguments {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder) else {
            FileHandle.standardError.write(Data("no such file: \(argument)\n".utf8))
            exit(2)
        }
        if isFolder.boolValue {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
            files += names.sorted().map { argument + "/" + $0 }
        } else {
            files.append(argument)
        }
    }
    for file in files {
        guard let data = FileManager.default.contents(atPath: file) else { continue }
        data.withUnsafeBytes(body)
    }
    print("replayed \(files.count) inputs")
}
