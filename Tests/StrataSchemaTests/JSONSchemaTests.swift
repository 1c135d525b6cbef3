import Foundation
import Testing
@testable import StrataSchema

/// The JSON Schemas editors validate model files with: every model in the repository passes, bad
/// files fail, the copies in `Schemas/` are current, and the schemas name exactly the keys and
/// values the parser accepts.
@Suite("JSON Schemas of model files")
struct JSONSchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func value(_ yaml: String) throws -> JSONValue {
        let read = YAMLReader.read(Array(yaml.utf8), file: "test.yml")
        return JSONValue(try #require(read.root))
    }

    /// Every folder in the repository holding a `model.yml`.
    static func modelFolders() -> [URL] {
        var folders: [URL] = []
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            if url.lastPathComponent.hasPrefix(".build") || url.lastPathComponent == ".git" { enumerator?.skipDescendants(); continue }
            if url.lastPathComponent == "model.yml" { folders.append(url.deletingLastPathComponent()) }
        }
        return folders
    }

    @Test func everyModelInTheRepositoryPasses() throws {
        let manifest = try JSONSchemaValidator(ModelJSONSchemas.manifest)
        let version = try JSONSchemaValidator(ModelJSONSchemas.version)
        let folders = Self.modelFolders()
        #expect(folders.count >= 9)
        var files = 0
        for folder in folders {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".yml") {
                let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                let errors = (name == "model.yml" ? manifest : version).errors(try value(text))
                #expect(errors.isEmpty, "\(folder.path)/\(name): \(errors)")
                files += 1
            }
        }
        #expect(files >= 25)
    }

    @Test func badFilesFail() throws {
        let version = try JSONSchemaValidator(ModelJSONSchemas.version)
        let found = version.errors(try value("""
            version: V1
            entities:
              Item:
                attributes:
                  name: {type: String, optinal: true}
                  count: Integer
                relationships:
                  owner: {destination: Person, toMany: many}
            """)).sorted()
        #expect(found == [
                "$.entities.Item.attributes.count: matches 0 of the oneOf schemas, not exactly one",
                "$.entities.Item.attributes.name: matches 0 of the oneOf schemas, not exactly one",
                "$.entities.Item.relationships.owner.toMany: not one of [\"unordered\", \"ordered\"]",
                "$.entities.Item.relationships.owner: missing 'inverse'",
            ])
        let manifest = try JSONSchemaValidator(ModelJSONSchemas.manifest)
        #expect(manifest.errors(try value("model: 2Shop\nchain: [V1]\n")).sorted() == [
            "$.model: '2Shop' does not match ^[^\\s0-9!-/:-@\\[-^`{-~][^\\s!-/:-@\\[-^`{-~]*$",
            "$: unknown key 'chain'",
        ])
    }

    @Test func theCopiesInSchemasAreCurrent() throws {
        let folder = Self.root.appendingPathComponent("Schemas")
        #expect(try String(contentsOf: folder.appendingPathComponent(ModelJSONSchemas.manifestFile), encoding: .utf8) == ModelJSONSchemas.manifest,
                "run: strata schema Schemas")
        #expect(try String(contentsOf: folder.appendingPathComponent(ModelJSONSchemas.versionFile), encoding: .utf8) == ModelJSONSchemas.version,
                "run: strata schema Schemas")
    }

    @Test func theSchemasNameWhatTheParserAccepts() throws {
        let version = try #require(try JSONSerialization.jsonObject(with: Data(ModelJSONSchemas.version.utf8)) as? [String: Any])
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(ModelJSONSchemas.manifest.utf8)) as? [String: Any])
        let definitions = try #require(version["definitions"] as? [String: [String: Any]])
        func keys(_ schema: [String: Any]?) -> Set<String> { Set((schema?["properties"] as? [String: Any] ?? [:]).keys) }
        func options(_ schema: [String: Any]?) -> Set<String> { Set(schema?["enum"] as? [String] ?? []) }
        let attributeObject = (definitions["attribute"]?["oneOf"] as? [[String: Any]])?.last
        let relationship = definitions["relationship"]
        let entity = definitions["entity"]
        #expect(keys(manifest) == Set(ManifestParser.keys))
        #expect(keys(version) == Set(VersionParser.keys))
        #expect(keys(entity) == Set(VersionParser.entityKeys))
        #expect(keys((entity?["properties"] as? [String: Any])?["import"] as? [String: Any]) == ["uniqueID", "keys"])
        #expect(keys(attributeObject) == Set(PropertyParser.attributeKeys))
        #expect(keys(relationship) == Set(PropertyParser.relationshipKeys))
        #expect(keys(definitions["migration"]) == Set(MigrationHintsParser.keys))
        #expect(keys(definitions["entityHint"]) == Set(MigrationHintsParser.entityKeys))
        #expect(keys(definitions["propertyHint"]) == ["renamedFrom"])
        #expect(options(definitions["attributeType"]) == Set(AttributeType.allCases.map(\.rawValue)))
        let attributeProperties = attributeObject?["properties"] as? [String: [String: Any]]
        #expect(options(attributeProperties?["coder"]) == Set(CodableCoder.allCases.map(\.rawValue)))
        #expect(options(attributeProperties?["initial"]) == Set(InitialValue.allCases.map(\.rawValue)))
        let relationshipProperties = relationship?["properties"] as? [String: [String: Any]]
        #expect(options(relationshipProperties?["toMany"]) == Set(RelationshipKind.allCases.filter(\.isToMany).map(\.rawValue)))
        #expect(options(relationshipProperties?["deleteRule"]) == Set(DeleteRule.allCases.map(\.rawValue)))
    }
}
