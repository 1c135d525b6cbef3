import Foundation
import StrataSchema

/// An Xcode model: a `.xcdatamodeld` bundle of versions, or a single `.xcdatamodel`.
public struct ModelBundle: Sendable, Hashable {
    /// One version: its name as Xcode shows it (`MyModel 2`), its `contents` file and model.
    public struct Version: Sendable, Hashable {
        /// The name as Xcode shows it, without `.xcdatamodel`.
        public var name: String
        /// The path of its `contents` file.
        public var file: String
        /// What the file describes.
        public var model: CoreDataModel

        /// A version read elsewhere.
        public init(name: String, file: String, model: CoreDataModel) {
            self.name = name
            self.file = file
            self.model = model
        }
    }

    /// The bundle's name without its extension.
    public var name: String
    /// The versions, in natural name order.
    public var versions: [Version]
    /// The version `.xccurrentversion` names, or nil when the bundle has none or it names none.
    public var currentVersion: String?
    /// Where `.xccurrentversion` names the current version, or, when it names none (an empty
    /// `<dict/>`), its dictionary: the converter then takes the last version of the chain as the
    /// current one, with a warning there. Nil without such a file.
    public var currentVersionPosition: SourceLocation?
    /// What was read, for the comments of the files written: `MyModel.xcdatamodeld`, or
    /// `MyModel.xcdatamodel` for a single version.
    public var source: String

    /// A bundle of versions read elsewhere, in natural name order.
    public init(name: String, versions: [Version], currentVersion: String?, source: String? = nil) {
        self.name = name
        self.versions = versions
        self.currentVersion = currentVersion
        self.source = source ?? name + ".xcdatamodeld"
    }

    /// Where a version came from: `MyModel.xcdatamodeld/MyModel 2.xcdatamodel`.
    public func source(of version: Version) -> String {
        source.hasSuffix(".xcdatamodeld") ? "\(source)/\(version.name).xcdatamodel" : source
    }

    /// Reads a `.xcdatamodeld` bundle or a `.xcdatamodel` folder.
    public static func read(path: String) throws(ConversionDiagnostic) -> ModelBundle {
        let url = URL(fileURLWithPath: path)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ConversionDiagnostic(.error, "\(path) is not a folder; give a .xcdatamodeld bundle or a .xcdatamodel")
        }
        let name = url.deletingPathExtension().lastPathComponent
        switch url.pathExtension {
        case "xcdatamodel":
            return ModelBundle(name: name, versions: [try version(at: url)], currentVersion: nil, source: url.lastPathComponent)
        case "xcdatamodeld":
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            var versions: [Version] = []
            for entry in entries where entry.hasSuffix(".xcdatamodel") {
                versions.append(try version(at: url.appendingPathComponent(entry)))
            }
            guard !versions.isEmpty else {
                throw ConversionDiagnostic(.error, "\(path) holds no .xcdatamodel version")
            }
            versions.sort { Names.naturallyPrecedes($0.name, $1.name) }
            var bundle = ModelBundle(name: name, versions: versions, currentVersion: nil)
            if let entry = try current(in: url) {
                bundle.currentVersion = entry.name
                bundle.currentVersionPosition = entry.position
            }
            return bundle
        default:
            throw ConversionDiagnostic(.error, "\(path) is neither a .xcdatamodeld bundle nor a .xcdatamodel")
        }
    }

    /// Reads one version's `contents`.
    static func version(at url: URL) throws(ConversionDiagnostic) -> Version {
        let file = url.appendingPathComponent("contents").path
        let tree = try readXML(file)
        return Version(name: url.deletingPathExtension().lastPathComponent, file: file, model: try CoreDataModelReader.read(tree, file: file))
    }

    /// What `.xccurrentversion` says: the version `_XCCurrentVersionName` names (without
    /// `.xcdatamodel`) and where, or no name and where its dictionary is. Nil without the file.
    static func current(in bundle: URL) throws(ConversionDiagnostic) -> (name: String?, position: SourceLocation)? {
        let file = bundle.appendingPathComponent(".xccurrentversion").path
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        let plist = try readXML(file)
        let dictionary = plist.child(named: "dict") ?? plist
        let items = dictionary.children
        guard let index = items.firstIndex(where: { $0.name == "key" && $0.text == "_XCCurrentVersionName" }) else {
            return (nil, SourceLocation(file: file, line: dictionary.line, column: dictionary.column))
        }
        guard index + 1 < items.count, items[index + 1].name == "string" else {
            throw ConversionDiagnostic(.error, "_XCCurrentVersionName is not followed by a <string> naming the current version",
                                       at: SourceLocation(file: file, line: items[index].line, column: items[index].column))
        }
        let element = items[index + 1]
        let value = element.text.trimmingCharacters(in: .whitespacesAndNewlines)
        return (value.hasSuffix(".xcdatamodel") ? String(value.dropLast(".xcdatamodel".count)) : value,
                SourceLocation(file: file, line: element.line, column: element.column))
    }

    /// A file read and parsed as XML, or an error at its position.
    static func readXML(_ file: String) throws(ConversionDiagnostic) -> XMLTree {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ConversionDiagnostic(.error, "\(file) cannot be read")
        }
        if data.starts(with: Array("bplist".utf8)) {
            throw ConversionDiagnostic(.error, "\(file) is a binary property list; save it as XML (plutil -convert xml1)")
        }
        do {
            return try XMLReader.parse([UInt8](data))
        } catch {
            throw ConversionDiagnostic(.error, "not well-formed XML: \(error.message)",
                                       at: SourceLocation(file: file, line: error.line, column: error.column))
        }
    }
}
