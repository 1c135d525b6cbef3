import Foundation

/// What reading a model folder produced: the model (when its files could be read at all) and
/// every problem found, sorted by position.
public struct LoadedModel: Sendable {
    /// The folder as the user named it.
    public var directory: String
    /// The model, or nil when `model.yml` or the version files could not be read.
    public var model: Model?
    /// Every problem, sorted by file, line and column.
    public var diagnostics: [Diagnostic]
    /// The raw bytes of each file read, by path, for tools that rewrite files in place.
    public var sources: [String: [UInt8]]

    /// Whether the model is usable: read and free of errors.
    public var isValid: Bool { model != nil && !diagnostics.contains { $0.severity == .error } }
}

/// Reads and validates a model folder: `model.yml` plus one `.yml` or `.yaml` file per version.
public enum ModelLoader {
    /// The file that names the model and its migration chain.
    public static let manifestNames = ["model.yml", "model.yaml"]

    /// Reads every file in `directory`, parses and validates the whole model, and reports every
    /// problem in one pass.
    public static func load(directory: String, limits: YAMLLimits = .standard) -> LoadedModel {
        var diagnostics = Diagnostics()
        var sources: [String: [UInt8]] = [:]
        let folder = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            diagnostics.error(notAFolder(folder, exists: FileManager.default.fileExists(atPath: folder)), at: .start(of: folder))
            return LoadedModel(directory: directory, model: nil, diagnostics: diagnostics.sorted, sources: [:])
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { !$0.hasPrefix(".") && ($0.hasSuffix(".yml") || $0.hasSuffix(".yaml")) }
            .filter { name in
                var isFolder: ObjCBool = false
                return !(FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isFolder) && isFolder.boolValue)
            }
            .sorted()
        let path = { @Sendable (name: String) in folder + "/" + name }
        guard let manifestName = names.first(where: manifestNames.contains) else {
            diagnostics.error(missingManifest(folder, versionFiles: names), at: .start(of: folder))
            return LoadedModel(directory: directory, model: nil, diagnostics: diagnostics.sorted, sources: [:])
        }

        // Version files are read and parsed on all cores: they are independent, and a large
        // model's files take most of the time a generation or a verification takes.
        let parsed = names.filter { !manifestNames.contains($0) }.concurrentMap { name in
            var fileDiagnostics = Diagnostics()
            var fileSources: [String: [UInt8]] = [:]
            var version: SchemaVersion?
            if let root = readTree(path(name), limits: limits, sources: &fileSources, diagnostics: &fileDiagnostics) {
                var parser = VersionParser()
                version = parser.parse(root, file: path(name))
                fileDiagnostics.append(contentsOf: parser.diagnostics.all)
            }
            return (version: version, diagnostics: fileDiagnostics, sources: fileSources)
        }
        var versions: [SchemaVersion] = []
        for file in parsed {
            diagnostics.append(contentsOf: file.diagnostics.all)
            sources.merge(file.sources) { _, new in new }
            guard let version = file.version else { continue }
            if let earlier = versions.first(where: { $0.name == version.name }) {
                diagnostics.error("version '\(version.name)' is also declared in \(earlier.file)", at: version.location)
                continue
            }
            versions.append(version)
        }

        var manifest: ModelManifest?
        if let root = readTree(path(manifestName), limits: limits, sources: &sources, diagnostics: &diagnostics) {
            var parser = ManifestParser()
            manifest = parser.parse(root, file: path(manifestName), singleVersion: versions.count == 1 ? versions[0].name : nil)
            diagnostics.append(contentsOf: parser.diagnostics.all)
        }
        guard let manifest else {
            return LoadedModel(directory: directory, model: nil, diagnostics: diagnostics.sorted, sources: sources)
        }
        let model = Model(manifest: manifest, versions: versions.sorted { $0.name < $1.name })
        diagnostics.append(contentsOf: ModelValidator.validate(model, someVersionFilesUnread: parsed.contains { $0.version == nil }))
        return LoadedModel(directory: directory, model: model, diagnostics: diagnostics.sorted, sources: sources)
    }

    /// What to say about a path given as a model folder that is not a folder: a version file (of a
    /// model folder, or of none), or nothing at all.
    private static func notAFolder(_ path: String, exists: Bool) -> String {
        guard exists else { return "no model folder here" }
        let parent = (path as NSString).deletingLastPathComponent
        let manager = FileManager.default
        if manifestNames.contains(where: { manager.fileExists(atPath: (parent.isEmpty ? "." : parent) + "/" + $0) }) {
            return "this is a file of the model folder '\(parent.isEmpty ? "." : parent)'; name the folder instead"
        }
        return "this file belongs to no model: a model folder holds model.yml (naming the model and its migration chain) "
            + "and one file per version; `strata init NAME` starts one"
    }

    /// The error for a folder of version files without `model.yml`, with the manifest to write.
    private static func missingManifest(_ folder: String, versionFiles: [String]) -> String {
        let name = (folder as NSString).lastPathComponent
        let versions = versionFiles.map { ($0 as NSString).deletingPathExtension }
            .sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        let chain = versions.isEmpty ? "V1" : versions.joined(separator: ", ")
        return "this model folder has no model.yml, so none of its files is read; add model.yml naming the model and its "
            + "migration chain (`model: \(name)` and `migrationChain: [\(chain)]`), or start a folder with `strata init \(name)`"
    }

    private static func readTree(_ file: String, limits: YAMLLimits, sources: inout [String: [UInt8]],
                                 diagnostics: inout Diagnostics) -> YAMLNode? {
        let size = ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber)?.intValue ?? 0
        if size > limits.maximumFileSize {
            diagnostics.error("file is \(size) bytes; a model file may be at most \(limits.maximumFileSize) bytes", at: .start(of: file))
            return nil
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            diagnostics.error("cannot read the file; check that it exists and is readable", at: .start(of: file))
            return nil
        }
        let bytes = Array(data)
        sources[file] = bytes
        let result = YAMLReader.read(bytes, file: file, limits: limits)
        diagnostics.append(contentsOf: result.diagnostics)
        return result.root
    }
}
