import Foundation
import StrataTestSupport
import Testing
@testable import StrataCodegen
import StrataSchema

/// The render cache the build plugin keeps: it gives exactly the files rendering gives, takes a
/// file from the cache only when its template and values are the ones it was rendered from, and
/// never stands in the way when it cannot be read or written.
@Suite("Render cache")
struct RenderCacheTests {
    private func model() throws -> Model {
        try #require(ModelLoader.load(directory: CodegenTests.sample).model)
    }

    private func generate(_ model: Model, cache: RenderCache? = nil, templates: String? = nil) throws -> [GeneratedFile] {
        try CodeGenerator(templatesDirectory: templates, access: .public).generate(model, cache: cache)
    }

    /// The model with one attribute of the current version made optional: `Dog.nickname`'s
    /// class and snapshot change, nothing else does.
    private func withOneAttributeChanged(_ model: Model) throws -> Model {
        var changed = model
        let current = try #require(changed.versions.firstIndex { $0.name == model.currentVersion?.name })
        let dog = try #require(changed.versions[current].entities.firstIndex { $0.name == "Dog" })
        let attribute = try #require(changed.versions[current].entities[dog].attributes.firstIndex { !$0.isOptional && $0.isStored })
        changed.versions[current].entities[dog].attributes[attribute].isOptional = true
        return changed
    }

    @Test func aCachedRunGivesTheRenderedFilesAndRendersOnlyWhatChanged() throws {
        let folder = TestFolders.url("strata-render-cache").path
        let original = try model()
        let rendered = try generate(original)

        // Every file but the schema history, which includes another template and has no key, and
        // the OpenAPI document, written without a template; and the snapshots, which share their
        // classes' files and have their own entries.
        let keyed = rendered.map(\.name).filter { $0 != "PetStoreSchemaHistory.swift" && $0 != "PetStoreOpenAPI.swift" }
            + (1...GeneratedFileNames.shardCount).map { "PetStoreEntities\($0).swift.snapshots" }
        let first = RenderCache(directory: folder, generator: "test 1")
        #expect(try generate(original, cache: first) == rendered)
        #expect(first.hits == 0)
        #expect(first.missed.sorted() == keyed.sorted())

        let second = RenderCache(directory: folder, generator: "test 1")
        #expect(try generate(original, cache: second) == rendered)
        #expect(second.hits == keyed.count)
        #expect(second.misses == 0)

        let changed = try withOneAttributeChanged(original)
        let expected = try generate(changed)
        let rewritten = zip(rendered, expected).filter { $0 != $1 }.map(\.1.name)
        let dogs = "PetStoreEntities\(GeneratedFileNames.shard(ofEntity: "Dog")).swift"
        #expect(rewritten == [dogs, "PetStoreImporters.swift", "PetStoreMigrations.swift"])
        let third = RenderCache(directory: folder, generator: "test 1")
        #expect(try generate(changed, cache: third) == expected)
        #expect(third.missed.sorted() == (rewritten + [dogs + ".snapshots"]).sorted())
        #expect(third.hits == keyed.count - 4)
    }

    @Test func anotherGeneratorOrTemplateRendersAgain() throws {
        let folder = TestFolders.url("strata-render-cache").path
        let original = try model()
        _ = try generate(original, cache: RenderCache(directory: folder, generator: "test 1"))

        let rebuilt = RenderCache(directory: folder, generator: "test 2")
        #expect(try generate(original, cache: rebuilt) == (try generate(original)))
        #expect(rebuilt.hits == 0)

        let templates = TestFolders.url("strata-render-cache-templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try "// {{ model }}: {{ entities.count }}\n".write(to: templates.appendingPathComponent("Snapshots.swift.stencil"), atomically: true, encoding: .utf8)
        let replaced = RenderCache(directory: folder, generator: "test 2")
        let files = try generate(original, cache: replaced, templates: templates.path)
        #expect(files == (try generate(original, templates: templates.path)))
        #expect(replaced.missed == (1...GeneratedFileNames.shardCount).map { "PetStoreEntities\($0).swift.snapshots" })
    }

    @Test func aDamagedOrUnwritableCacheOnlyCostsARender() throws {
        let original = try model()
        let rendered = try generate(original)

        let folder = TestFolders.url("strata-render-cache")
        _ = try generate(original, cache: RenderCache(directory: folder.path, generator: "test 1"))
        let name = try #require(rendered.first?.name)
        try "something else".write(to: folder.appendingPathComponent(name + ".key"), atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: folder.appendingPathComponent(rendered[1].name + ".rendered"))
        let damaged = RenderCache(directory: folder.path, generator: "test 1")
        #expect(try generate(original, cache: damaged) == rendered)
        #expect(damaged.missed.sorted() == [rendered[0].name, rendered[1].name].sorted())

        // A file where the folder should be: nothing can be stored, and nothing fails.
        let blocked = TestFolders.url("strata-render-cache-file")
        try "not a folder".write(to: blocked, atomically: true, encoding: .utf8)
        let unwritable = RenderCache(directory: blocked.path, generator: "test 1")
        #expect(try generate(original, cache: unwritable) == rendered)
        #expect(try generate(original, cache: unwritable) == rendered)
        #expect(unwritable.hits == 0)
    }

    /// The key holds every value a template names and nothing a template does not name, so that
    /// one entity's change leaves the other files' keys alone; a template that includes another
    /// has none.
    @Test func aKeyHoldsWhatTheTemplateNames() throws {
        let templates = ["T": "{{ model }} {% for e in entities %}{{ e.name }}{% endfor %}"]
        let context: [String: Any] = ["model": "Zoo", "entities": [TemplateNode(["name": "Cat", "legs": 4, "wild": false])],
                                      "unused": "changes nothing"]
        let key = try #require(RenderKey.make(template: "T", templates: templates, context: context))
        #expect(key.contains("model = s3:Zoo"))
        #expect(key.contains("entities = [1{3s4:legsi4;s4:names3:Cats4:wildF}]"))
        #expect(!key.contains("changes nothing"))
        var other = context
        other["unused"] = "something else"
        #expect(RenderKey.make(template: "T", templates: templates, context: other) == key)
        other["model"] = "Zoo2"
        #expect(RenderKey.make(template: "T", templates: templates, context: other) != key)
        #expect(RenderKey.identifiers("a {{ b.c|d:1 }} e {% for f in g %}{ h }{% endfor %} {{ i") == ["b", "c", "d", "1", "for", "f", "in", "g", "endfor", "i"])
        #expect(RenderKey.make(template: "U", templates: ["U": "{% include \"T\" %}", "T": ""], context: context) == nil)
        // A value it cannot write exactly leaves the file without a key: it is rendered every time.
        other["model"] = 1.5
        #expect(RenderKey.make(template: "T", templates: templates, context: other) == nil)
    }
}
