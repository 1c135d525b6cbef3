import Foundation
import StrataTestSupport
import Testing
@testable import StrataCodegen
import StrataSchema

/// The schema history: older versions as text that names an unchanged entity's earlier
/// description, the current one as Swift declaring each description once.
@Suite("Schema history sharing")
struct HistorySharingTests {
    static let files: [String: String] = [
        "model.yml": "model: Farm\nmigrationChain: [V1, V2, V3]\n",
        "V1.yml": """
            version: V1
            entities:
              Barn:
                attributes:
                  name: {type: String}
                  size: {type: Int32}
              Cow:
                attributes:
                  tag: {type: String}
            """,
        "V2.yml": """
            version: V2
            entities:
              Barn:
                attributes:
                  name: {type: String}
                  size: {type: Int32}
              Cow:
                attributes:
                  tag: {type: String}
                  weight: {type: Double}
            """,
        "V3.yml": """
            version: V3
            entities:
              Barn:
                attributes:
                  name: {type: String}
                  size: {type: Int32, optional: true}
              Cow:
                attributes:
                  tag: {type: String}
                  weight: {type: Double}
            """,
    ]

    /// The generated file with a name.
    private func generated(_ name: String) throws -> String {
        try #require(try generatedFiles()[name])
    }

    /// Every generated file's text, by file name.
    private func generatedFiles() throws -> [String: String] {
        let folder = TestFolders.url("strata-sharing")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in Self.files {
            try (text + "\n").write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let model = try #require(ModelLoader.load(directory: folder.path).model)
        return Dictionary(uniqueKeysWithValues: try CodeGenerator().generate(model).map { ($0.name, $0.contents) })
    }

    /// Older versions, then the current one.
    private func history() throws -> String {
        try generated("FarmSchemaVersions.swift") + generated("FarmSchemaHistory.swift")
    }

    private func count(_ text: String, in history: String) -> Int {
        history.components(separatedBy: text).count - 1
    }

    /// Older versions are text; an entity an earlier version describes alike is a `same` line
    /// naming that version, so the text grows with changes, not versions × entities.
    @Test func anUnchangedEntityIsWrittenOnceAndNamedAfter() throws {
        let older = try generated("FarmSchemaVersions.swift")
        #expect(count("        entity Barn lock=", in: older) == 1)
        #expect(count("        entity Cow lock=", in: older) == 2)
        #expect(older.contains("        version V2\n        same Barn V1\n        entity Cow lock="))
        #expect(older.contains("        attribute tag String required\n        attribute weight Double required\n"))
        #expect(older.contains("static let version: ModelVersion = ModelVersion(text: text, earlier: Farm.version(named:))"))
        #expect(!older.contains("AttributeDescription(") && !older.contains("EntityDescription("))
    }

    /// The current version is Swift: each description declared once, beside its entity's class,
    /// so that one entity's change leaves the schema history's file as it is.
    @Test func theCurrentVersionDeclaresEachDescriptionOnceBesideItsClass() throws {
        let files = try generatedFiles()
        let history = try #require(files["FarmSchemaHistory.swift"])
        let barn = try #require(files[GeneratedFileNames.entities("Farm", shard: GeneratedFileNames.shard(ofEntity: "Barn"))])
        let classes = files.filter { $0.key.hasPrefix("FarmEntities") }.values.joined(separator: "\n")
        #expect(count("static var entityBarn: EntityDescription", in: classes) == 1)
        #expect(count("static var entityCow: EntityDescription", in: classes) == 1)
        #expect(barn.contains("final class Barn") && barn.contains("extension FarmV3 {\n    /// `Barn` as of V3."))
        #expect(barn.contains("        let attribute0 = AttributeDescription(\"name\", .string, required: true)\n        let attribute1 = AttributeDescription(\"size\", .int32, optional: true)\n        return EntityDescription(\n            \"Barn\",\n            attributes: [attribute0, attribute1],\n"))
        #expect(!barn.contains("BarnProperties"))
        #expect(count("AttributeDescription(", in: classes) == 4)
        #expect(!history.contains("AttributeDescription(") && !history.contains("EntityDescription("))
        #expect(history.contains("            FarmV3.entityBarn,\n            FarmV3.entityCow,\n"))
    }

    /// The schema history's file names no generated class: each file of classes lists its own.
    @Test func theSchemaHistoryNamesNoClass() throws {
        let files = try generatedFiles()
        let history = try #require(files["FarmSchemaHistory.swift"])
        #expect(!history.contains("Barn.self") && !history.contains("Cow.self"))
        #expect(history.contains("static let entityTypes: [StrataObject.Type] = [\n        entityTypes1,\n"))
        let barn = try #require(files[GeneratedFileNames.entities("Farm", shard: GeneratedFileNames.shard(ofEntity: "Barn"))])
        #expect(barn.contains("static var entityTypes\(GeneratedFileNames.shard(ofEntity: "Barn")): [StrataObject.Type] {"))
    }

    @Test func olderVersionsLiveInTheirOwnFile() throws {
        let older = try generated("FarmSchemaVersions.swift")
        let current = try generated("FarmSchemaHistory.swift")
        #expect(older.contains("public enum FarmV1 {") && older.contains("public enum FarmV2 {") && !older.contains("public enum FarmV3 {"))
        #expect(current.contains("public enum FarmV3 {") && !current.contains("public enum FarmV1 {"))
    }

    @Test func everyVersionIsBuiltByName() throws {
        let history = try history()
        #expect(history.contains("versionNames: [\"V1\", \"V2\", \"V3\"]"))
        #expect(history.contains("current: FarmV3.version,"))
        for version in ["V1", "V2", "V3"] {
            #expect(history.contains("case \"\(version)\": return Farm\(version).version"))
            #expect(history.contains("public enum Farm\(version) {"))
        }
    }
}
