import Foundation

/// Hand-made `.xcdatamodeld` bundles, written to a temporary folder: each version's entities
/// (the XML inside `<model>`) and what `.xccurrentversion` holds.
enum BundleFixture {
    /// Writes `Name.xcdatamodeld` with one `.xcdatamodel` per version; `current` is the file name
    /// `.xccurrentversion` names, or nil for an empty dictionary. Returns the bundle's path and
    /// the `.xccurrentversion` file's.
    static func write(_ name: String, versions: [(name: String, entities: String)], current: String?) throws -> (path: String, plist: String) {
        let folder = Paths.temporaryFolder() + "/\(name).xcdatamodeld"
        for version in versions {
            let path = folder + "/\(version.name).xcdatamodel"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            let contents = """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                \(version.entities)
                </model>
                """
            try Data(contents.utf8).write(to: URL(fileURLWithPath: path + "/contents"))
        }
        let entry = current.map { "\t<key>_XCCurrentVersionName</key>\n\t<string>\($0)</string>\n" }
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            \(entry.map { "<dict>\n\($0)</dict>" } ?? "<dict/>")
            </plist>
            """
        try Data(plist.utf8).write(to: URL(fileURLWithPath: folder + "/.xccurrentversion"))
        return (folder, folder + "/.xccurrentversion")
    }

    /// Removes a bundle written by `write` with its temporary folder.
    static func remove(_ bundle: String) {
        try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: bundle).deletingLastPathComponent().path)
    }
}
