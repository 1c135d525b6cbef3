import Foundation
import Stencil
import StrataSchema

/// Who may use the generated declarations.
public enum AccessLevel: String, Sendable, CaseIterable {
    /// `public`: the model lives in a library other modules use.
    case `public`
    /// No modifier: the model is used inside its own module.
    case `internal`
}

/// One generated Swift file.
public struct GeneratedFile: Sendable, Equatable {
    /// The file name, such as `PetStoreEntities.swift`.
    public let name: String
    /// The file's text.
    public let contents: String

    /// A file.
    public init(name: String, contents: String) {
        self.name = name
        self.contents = contents
    }
}

/// Why generation failed.
public enum CodegenError: Error, Equatable, CustomStringConvertible {
    /// A template could not be read or rendered.
    case template(name: String, reason: String)

    /// The message the CLI prints.
    public var description: String {
        switch self {
        case .template(let name, let reason): return "template '\(name)': \(reason)"
        }
    }
}

/// Turns a validated model into Swift sources for the runtime: entity classes, snapshots and the
/// schema history of the current version. Output is deterministic: the same model gives the
/// same bytes, with no timestamps.
public struct CodeGenerator {
    /// The generator's version, named in every file header (never in a lock).
    public static let version = "0.1.0"

    private let templates: [String: String]
    let access: AccessLevel

    /// A generator with the built-in templates, any of which a file of the same name in
    /// `templatesDirectory` replaces.
    public init(templatesDirectory: String? = nil, access: AccessLevel = .public) throws(CodegenError) {
        var templates = BuiltinTemplates.all
        if let templatesDirectory {
            for name in templates.keys {
                let path = templatesDirectory + "/" + name
                guard FileManager.default.fileExists(atPath: path) else { continue }
                guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                    throw .template(name: name, reason: "cannot read \(path) as UTF-8 text")
                }
                templates[name] = text
            }
        }
        self.templates = templates.mapValues(TemplateTrimming.trimmed)
        self.access = access
    }

    /// The files a model's generation writes, for build tools that must name outputs in advance.
    public static func fileNames(model: String) -> [String] {
        GeneratedFileNames.all(prefix: model)
    }

    /// One template to render: the file its text goes to (after the texts of the jobs before it
    /// that go to the same file), its name in the render cache, and the context values that differ
    /// from the model's.
    private struct RenderJob {
        let template: String
        let fileName: String
        let cacheName: String
        let overrides: [String: Any]

        init(template: String, fileName: String, cacheName: String? = nil, overrides: [String: Any]) {
            self.template = template
            self.fileName = fileName
            self.cacheName = cacheName ?? fileName
            self.overrides = overrides
        }
    }

    /// The sources of a valid model. With a `cache`, a file whose template and values are those
    /// it was last rendered from is taken from the cache instead of being rendered again. `locks`
    /// holds entities' current-format locks already known, by version name (``CurrentLocks``).
    public func generate(_ model: Model, cache: RenderCache? = nil,
                         locks: [String: [String: LockHash]] = [:]) throws(CodegenError) -> [GeneratedFile] {
        guard let current = model.currentVersion else { return [] }
        let accessPrefix = access == .public ? "public " : ""
        let name = model.manifest.name
        let sortedEntities = current.entities.sorted { $0.name < $1.name }
        let entities = sortedEntities.map { EntityContext(entity: $0, version: current, access: accessPrefix).node }
        let versions = SchemaContext.versions(model, locks: locks)
        let steps = MigrationContext.steps(model)
        let context: [String: Any] = [
            "generatorVersion": Self.version, "model": name, "version": current.name, "access": accessPrefix,
            "modelName": SwiftSyntax.identifier(name), "modelLiteral": SwiftSyntax.stringLiteral(name),
            "modelDocLines": SwiftSyntax.docLines(model.manifest.doc),
            "entities": entities,
            "importers": ImportContext.importers(current),
            "steps": steps, "allVersions": versions, "migrationChain": SchemaContext.chainLiteral(model.manifest.chain),
            "versionNameList": versions.compactMap { $0.values["nameLiteral"] as? String }.joined(separator: ", "),
            "currentNamespace": SwiftSyntax.identifier(name + current.name),
            "shardEntityTypes": (1...GeneratedFileNames.shardCount).map { "entityTypes\($0)" }.joined(separator: ",\n        "),
        ]
        // The older versions come first: theirs is the longest file of a model with a long history,
        // and a thread that starts it last would finish long after the others.
        let isCurrent = { (node: TemplateNode) in node.values["plainName"] as? String == current.name }
        var jobs = [RenderJob(template: "SchemaVersions.swift.stencil", fileName: GeneratedFileNames.schemaVersions(name),
                              overrides: ["versions": versions.filter { !isCurrent($0) }])]
        // Entity classes and then their snapshots are rendered once per shard of the entities, into
        // one file; each shard also declares its entities' current descriptions, so one entity's
        // change rewrites its shard and leaves the schema history as it is.
        let shards = Dictionary(grouping: zip(sortedEntities, entities), by: { GeneratedFileNames.shard(ofEntity: $0.0.name) })
        let descriptors = versions.first(where: isCurrent)?.values ?? [:]
        func inShard(_ key: String, _ shard: Int) -> [TemplateNode] {
            ((descriptors[key] as? [TemplateNode]) ?? []).filter { node in
                (node.values["entity"] as? String).map { GeneratedFileNames.shard(ofEntity: $0) } == shard
            }
        }
        for shard in 1...GeneratedFileNames.shardCount {
            let shardEntities = (shards[shard] ?? []).map(\.1)
            let typeList = shardEntities.compactMap { $0.values["name"] as? String }.map { $0 + ".self" }.joined(separator: ", ")
            jobs.append(RenderJob(template: "Entities.swift.stencil", fileName: GeneratedFileNames.entities(name, shard: shard),
                                  overrides: ["entities": shardEntities, "shard": shard, "shardTypeList": typeList, "descriptorDeclarations": inShard("declarations", shard)]))
        }
        for shard in 1...GeneratedFileNames.shardCount {
            let fileName = GeneratedFileNames.entities(name, shard: shard)
            jobs.append(RenderJob(template: "Snapshots.swift.stencil", fileName: fileName, cacheName: fileName + ".snapshots",
                                  overrides: ["entities": (shards[shard] ?? []).map(\.1)]))
        }
        jobs.append(RenderJob(template: "SchemaHistory.swift.stencil", fileName: GeneratedFileNames.schemaHistory(name),
                              overrides: ["versions": versions.filter(isCurrent)]))
        jobs.append(RenderJob(template: "Importers.swift.stencil", fileName: GeneratedFileNames.importers(name), overrides: [:]))
        jobs.append(RenderJob(template: "Migrations.swift.stencil", fileName: GeneratedFileNames.migrations(name), overrides: [:]))
        let contexts = jobs.map { context.merging($0.overrides) { _, override in override } }
        let keys = cache == nil ? jobs.map { _ in nil } : Self.keysConcurrently(templates: templates, contexts: contexts, names: jobs.map(\.template),
                                                                                          files: jobs.map(\.fileName))
        var texts: [String?] = jobs.indices.map { index in
            keys[index].flatMap { key in cache?.text(named: jobs[index].cacheName, key: key) }
        }
        let missing = jobs.indices.filter { texts[$0] == nil }
        let rendered = Self.renderConcurrently(templates: templates, contexts: missing.map { contexts[$0] }, names: missing.map { jobs[$0].template })
        for (index, result) in zip(missing, rendered) {
            switch result {
            case .success(let text):
                texts[index] = Self.tidy(text)
                if let key = keys[index], let text = texts[index] { cache?.store(text, named: jobs[index].cacheName, key: key) }
            case .failure(let error): throw .template(name: jobs[index].template, reason: "\(error)")
            }
        }
        var parts: [String: [String]] = [:]
        for (job, text) in zip(jobs, texts) { parts[job.fileName, default: []].append(text ?? "") }
        var files = parts.map { fileName, texts in GeneratedFile(name: fileName, contents: Self.joined(texts)) }
        files.append(GeneratedFile(name: GeneratedFileNames.openAPI(name), contents: openAPIFile(model, version: current)))
        let order = Dictionary(uniqueKeysWithValues: GeneratedFileNames.all(prefix: name).enumerated().map { ($1, $0) })
        return files.sorted { order[$0.name, default: 0] < order[$1.name, default: 0] }
    }

    /// `<Model>MigrationTests.swift`: a Swift Testing suite that seeds a store at every older
    /// version of the model and migrates it to the current one (no suite for a model with one
    /// version). `testableImport` names the module holding the model, when the tests live in
    /// another one.
    public func migrationTests(_ model: Model, testableImport: String? = nil) throws(CodegenError) -> GeneratedFile {
        let name = model.manifest.name
        let context: [String: Any] = [
            "generatorVersion": Self.version, "model": name, "version": model.currentVersion?.name ?? "",
            "modelName": SwiftSyntax.identifier(name), "testableImport": testableImport.map(SwiftSyntax.identifier) ?? "",
            "migrationTests": MigrationTestContext.versions(model),
        ]
        let template = "MigrationTests.swift.stencil"
        guard let rendered = Self.renderConcurrently(templates: templates, contexts: [context], names: [template]).first else {
            throw .template(name: template, reason: "nothing was rendered")
        }
        switch rendered {
        case .success(let text): return GeneratedFile(name: GeneratedFileNames.migrationTests(name), contents: Self.tidy(text))
        case .failure(let error): throw .template(name: template, reason: "\(error)")
        }
    }

    /// Renders the files on all cores: they share nothing but read-only contexts.
    private static func renderConcurrently(templates: [String: String], contexts: [[String: Any]], names: [String]) -> [Result<String, any Error>] {
        let shared = SharedContext(templates: templates, contexts: contexts)
        return Array(names.indices).concurrentMap { index in
            let environment = Environment(loader: DictionaryLoader(templates: shared.templates), extensions: [TemplateFilters.makeExtension()],
                                          trimBehaviour: .nothing)
            return Result { try environment.renderTemplate(name: names[index], context: shared.contexts[index]) }
        }
    }

    /// Each job's ``RenderKey`` on all cores: a long history's keys hold megabytes of text. The jobs
    /// of one file are keyed together, so the entities they share are written out once.
    private static func keysConcurrently(templates: [String: String], contexts: [[String: Any]], names: [String],
                                         files: [String]) -> [String?] {
        let shared = SharedContext(templates: templates, contexts: contexts)
        // In the jobs' order, so the longest key (the older versions', listed first) starts first.
        let groups = Dictionary(grouping: names.indices, by: { files[$0] }).values.sorted { $0[0] < $1[0] }
        let keyed = groups.concurrentMap { group in
            let memo = RenderKey.Memo()
            return group.map { index in (index, RenderKey.make(template: names[index], templates: shared.templates, context: shared.contexts[index], memo: memo)) }
        }
        var keys = [String?](repeating: nil, count: names.count)
        for (index, key) in keyed.joined() { keys[index] = key }
        return keys
    }

    /// The texts of one file's templates, in order, each already tidied, one blank line apart. A
    /// later text's opening lines that the first text's header (its lines before the first blank
    /// one: the "Generated by" line and the imports) already holds are left out, and a text with
    /// nothing after them adds nothing.
    static func joined(_ texts: [String]) -> String {
        guard var file = texts.first, texts.count > 1 else { return texts.first ?? "" }
        let header = Set(file.split(separator: "\n", maxSplits: 16, omittingEmptySubsequences: false).prefix { !$0.isEmpty }.map(String.init))
        for text in texts.dropFirst() {
            var rest = Substring(text)
            while let end = rest.firstIndex(of: "\n"), header.contains(String(rest[..<end])) {
                rest = rest[rest.index(after: end)...]
            }
            rest = rest.drop { $0 == "\n" }
            if !rest.isEmpty { file += "\n" + rest }
        }
        return file
    }

    /// Trailing spaces removed, runs of blank lines folded to one, one final line feed.
    ///
    /// Works on UTF-8 bytes: spaces and line feeds are single bytes that never occur inside a
    /// multi-byte character, and the output of a large model is megabytes long.
    static func tidy(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var previousBlank = true
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            var end = line.endIndex
            while end > line.startIndex, line[line.index(before: end)] == UInt8(ascii: " ") { end = line.index(before: end) }
            let isBlank = end == line.startIndex
            if isBlank, previousBlank { continue }
            output.append(contentsOf: line[line.startIndex..<end])
            output.append(UInt8(ascii: "\n"))
            previousBlank = isBlank
        }
        while output.count >= 2, output[output.count - 1] == UInt8(ascii: "\n"), output[output.count - 2] == UInt8(ascii: "\n") {
            output.removeLast()
        }
        if output.isEmpty { output.append(UInt8(ascii: "\n")) }
        return String(decoding: output, as: UTF8.self)
    }
}
