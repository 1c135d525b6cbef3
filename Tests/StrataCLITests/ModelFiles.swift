import Foundation
import StrataTestSupport

/// Writes a model folder for a test: each file name with its text.
func modelFolder(_ prefix: String, _ files: [String: String]) throws -> String {
    let folder = TestFolders.url(prefix).path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
    return folder
}
